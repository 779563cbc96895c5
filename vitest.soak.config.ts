// `npm run soak`: the reliability scenarios of test/worker/figures.ts, run longer than in `npm test`.
// Bounded: each scenario stops after SOAK_ROUNDS batches or SOAK_SECONDS, whichever comes first. Loopback only.
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const seconds = Number(process.env.SOAK_SECONDS) || 60;

export default defineConfig({
  plugins: [
    cloudflareTest(async () => ({
      wrangler: { configPath: "./wrangler.jsonc" },
      miniflare: {
        bindings: {
          AUTH_MODE: "dev",
          TEST_MODE: "1",
          TEST_MIGRATIONS: await readD1Migrations("migrations"),
          SOAK_ROUNDS: process.env.SOAK_ROUNDS ?? "",
          SOAK_SECONDS: String(seconds),
        },
      },
    })),
  ],
  test: {
    name: "soak",
    include: ["test/soak/**/*.soak.ts"],
    setupFiles: ["test/worker/apply-migrations.ts"],
    // A batch that starts just before the deadline still finishes: allow the budget plus a generous batch.
    testTimeout: seconds * 1000 + 240_000,
  },
});
