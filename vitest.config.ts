import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import solid from "vite-plugin-solid";
import { defineConfig } from "vitest/config";
import { peerDir } from "./scripts/install-peers.mjs";
import { authTestProjects } from "./test/worker/auth-projects";

/** AIChatAgent's packages, resolved from the peers cache (scripts/install-peers.mjs), never from node_modules. */
const aiChatModules = (id: string) => `${peerDir("ai-chat")}/node_modules/${id}`;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["shared/**/*.test.ts", "worker/**/*.test.ts", "daemon/**/*.test.ts", "test/fake-model/**/*.test.ts", "test/build/**/*.test.ts", "test/scripts/**/*.test.ts", "test/*.test.ts"],
          // Pure modules: one module graph per worker instead of one per file (85 files: 77 → 20 s of CPU).
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // The daemon against real processes (the demo agent and Gemini over stdio, git, the spawned CLI): files
          // that mostly wait, so npm test runs them beside the CPU-bound projects rather than in their queue.
          name: "daemon",
          environment: "node",
          include: ["test/daemon/**/*.test.ts"],
          // One module graph per worker (no mocks; the one file that sets process.env puts it back): 83 → 73 CPU-s alone.
          isolate: false,
          testTimeout: 30_000,
        },
      },
      {
        plugins: [solid()],
        resolve: { conditions: ["development", "browser"] },
        test: {
          name: "client",
          environment: "jsdom",
          include: ["client/**/*.test.{ts,tsx}"],
          setupFiles: ["client/test-setup.ts"],
          // One module graph and one jsdom for all files: per-file isolation spent ~2 s a file re-importing jsdom
          // (98 of 166 s on 2 cores). client/test-setup.ts puts back what a test leaves in the page's globals.
          isolate: false,
          // As unit and worker: a file's first test carries its first render's imports, past 5 s on a loaded 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.jsonc" },
            miniflare: {
              bindings: { AUTH_MODE: "dev", LOCAL_STACK: "1", TEST_MODE: "1", TEST_MIGRATIONS: await readD1Migrations("migrations") },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // Auth-mode and push suites run in their own workerd projects (different bindings): see auth-projects.ts.
          exclude: ["test/worker/auth-access*.test.ts", "test/worker/auth-builtin*.test.ts", "test/worker/push*.test.ts"],
          setupFiles: ["test/worker/apply-migrations.ts", "test/worker/settle-daemons.ts"],
          // One workerd (one Miniflare) for all the project's files instead of one per file: starting it cost ~3 s
          // of CPU a file (20 files: 124 → 55 CPU-s alone). The files share its D1 and DOs, so each test makes its
          // own ids and reads only what it made (checked with the files in shuffled orders).
          isolate: false,
          testTimeout: 30_000,
        },
      },
      ...(await authTestProjects()),
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./bench/wrangler.bench.jsonc" },
            miniflare: {
              bindings: {
                AUTH_MODE: "dev",
                LOCAL_STACK: "1",
                TEST_MIGRATIONS: await readD1Migrations("migrations"),
                // bench/run.mjs starts vitest with --inspect on this address (heap figures).
                BENCH_INSPECTOR: process.env.BENCH_INSPECTOR ?? "",
                // Where miniflare keeps the DOs' SQLite files this run (bench/run.mjs: "disk" or "tmpfs").
                BENCH_STORAGE: process.env.BENCH_STORAGE ?? "",
                // "1": room.bench-run.ts also prints a CPU profile of the fan-out rounds (needs --inspect).
                BENCH_PROFILE: process.env.BENCH_PROFILE ?? "",
                // Fan-out rounds per row (default 11).
                BENCH_FAN_OUT_ROUNDS: process.env.BENCH_FAN_OUT_ROUNDS ?? "",
              },
            },
          })),
        ],
        test: {
          name: "bench",
          include: ["bench/*.bench-run.ts"],
          // settle-daemons: a file that ends while its closed tunnels' offline news is still in flight fails the
          // run ("Closing rpc while resolve was pending") and npm run bench prints no table.
          setupFiles: ["test/worker/apply-migrations.ts", "test/worker/settle-daemons.ts"],
          testTimeout: 300_000,
        },
      },
      {
        // Client render benchmark: Node drives Chromium against a Vite build of bench/client (npm run bench).
        test: {
          name: "bench-client",
          environment: "node",
          include: ["bench/client/*.bench-run.ts"],
          // One Chromium-driving file at a time: two would share the cores their timings measure.
          fileParallelism: false,
          testTimeout: 300_000,
          hookTimeout: 300_000,
        },
      },
      {
        // Cloudflare's AIChatAgent in the same workerd as Baton's bench worker (bench/peers/ai-chat), its
        // packages aliased to the peers cache (npm run bench installs them first).
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./bench/peers/ai-chat/wrangler.jsonc" },
            miniflare: { bindings: { AUTH_MODE: "dev", LOCAL_STACK: "1", TEST_MIGRATIONS: await readD1Migrations("migrations") } },
          })),
        ],
        resolve: {
          alias: [
            { find: /^@cloudflare\/ai-chat$/, replacement: aiChatModules("@cloudflare/ai-chat") },
            { find: /^agents$/, replacement: aiChatModules("agents") },
            { find: /^ai$/, replacement: aiChatModules("ai") },
          ],
        },
        test: {
          name: "bench-ai-chat",
          include: ["bench/peers/ai-chat/*.bench-run.ts"],
          setupFiles: ["test/worker/apply-migrations.ts"],
          testTimeout: 600_000,
        },
      },
      {
        // Peers measured side by side with Baton (bench/peers: HAPI's hub binary, driven from Node);
        // installed on demand into ~/.cache/baton-peers by scripts/install-peers.mjs (npm run bench).
        test: {
          name: "bench-peers",
          environment: "node",
          include: ["bench/peers/*.bench-run.ts"],
          fileParallelism: false,
          testTimeout: 900_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Real ACP agents (installed on demand into ~/.cache/baton-agents) against the fake model server:
        // BATON_AGENTS picks them (default claude,codex; npm run test:agents runs all).
        test: {
          name: "agents",
          environment: "node",
          include: ["test/agents/**/*.test.ts"],
          globalSetup: ["test/agents/global-setup.ts"],
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 900_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          // One stack for the files that only need Baton up (useStackAndBrowser({ shared: true })).
          globalSetup: ["test/e2e/global-setup.ts"],
          // One module graph per worker (playwright-core, the support code): the files share no module state, and
          // re-importing per file cost ~1.5 s of CPU each (6 files: 193 → 161 CPU-s in all, measured side by side).
          isolate: false,
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
