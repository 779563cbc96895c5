import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain .mjs module without types
import { ensureBuilt } from "../../scripts/dev-stack.mjs";
import { htmlScripts, initialFiles, type Manifest, staticClosure } from "./initial-js";

/** Issue 20: a phone on a slow link paints a page after ≤ 60 KB of gzipped JS (once a single 123 KB chunk). */
const INITIAL_JS_BUDGET_GZ = 60 * 1024;

/** The pages and the lazily loaded route chunk each paints with (main.tsx). */
const PAGES = {
  home: "src/views/SessionList.tsx",
  session: "src/views/SessionView.tsx",
  machines: "src/views/Machines.tsx",
  "approve a machine": "src/views/MachineApprove.tsx",
  // A share link's page (issue 30 #3) before the link opened, or when it says why not; the live view adds the session chunk.
  "share link": "src/views/SharedSession.tsx",
} as const;

describe("initial-js: what a page loads before it paints", () => {
  const manifest: Manifest = {
    "index.html": { file: "assets/index.js", isEntry: true, imports: ["_solid.js"], dynamicImports: ["src/views/SessionView.tsx"] },
    "_solid.js": { file: "assets/solid.js" },
    "_zod.js": { file: "assets/zod.js" },
    "src/views/SessionView.tsx": { file: "assets/SessionView.js", isDynamicEntry: true, imports: ["_solid.js", "_fold.js"], dynamicImports: ["src/lib/markdown.ts"] },
    "_fold.js": { file: "assets/fold.js", imports: ["_solid.js"] },
    "src/lib/markdown.ts": { file: "assets/markdown.js", isDynamicEntry: true, imports: ["_zod.js"] },
  };
  const html = `<script type="module" crossorigin src="/assets/index.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/solid.js"><link rel="stylesheet" href="/assets/index.css">
    <script src="https://cdn.example/x.js"></script><script type="module" src="/registerSW.js"></script>`;

  it("index.html's module scripts and modulepreloads, local only", () => {
    expect(htmlScripts(html)).toEqual(["assets/index.js", "assets/solid.js", "registerSW.js"]);
  });

  it("follows static imports, not dynamic ones", () => {
    expect(staticClosure(manifest, "src/views/SessionView.tsx").sort()).toEqual(["assets/SessionView.js", "assets/fold.js", "assets/solid.js"]);
    expect(staticClosure(manifest, "index.html").sort()).toEqual(["assets/index.js", "assets/solid.js"]);
  });

  it("a page = index.html's scripts + the route chunk, each with its static imports", () => {
    expect(initialFiles(manifest, html, "src/views/SessionView.tsx")).toEqual([
      "assets/SessionView.js",
      "assets/fold.js",
      "assets/index.js",
      "assets/solid.js",
      "registerSW.js",
    ]);
  });

  it("a route that is not a lazy chunk of its own is an error, not a silent pass", () => {
    expect(() => initialFiles(manifest, html, "src/views/Nope.tsx")).toThrow(/not a lazily loaded chunk/);
    expect(() => initialFiles(manifest, html, "_fold.js")).toThrow(/not a lazily loaded chunk/);
  });
});

describe("initial JS budget (production build)", () => {
  it(
    `each page paints after ≤ ${INITIAL_JS_BUDGET_GZ / 1024} KB of gzipped JS`,
    async () => {
      // The same dist the e2e stack serves: rebuilt only when a source is newer (shared under a lock).
      await ensureBuilt({ quiet: true });
      const dir = resolve(import.meta.dirname, "../../dist/client");
      const manifest = JSON.parse(readFileSync(join(dir, ".vite/manifest.json"), "utf8")) as Manifest;
      const html = readFileSync(join(dir, "index.html"), "utf8");
      const gz = (f: string) => gzipSync(readFileSync(join(dir, f))).length;
      const report = Object.entries(PAGES).map(([page, route]) => {
        const files = initialFiles(manifest, html, route);
        return { page, files: files.map((f) => `${f} ${(gz(f) / 1024).toFixed(1)} KB`), gz: files.reduce((n, f) => n + gz(f), 0) };
      });
      for (const r of report) console.log(`initial JS, ${r.page}: ${(r.gz / 1024).toFixed(1)} KB gz — ${r.files.join(", ")}`);
      for (const r of report) expect(r.gz, `${r.page}: ${r.files.join(", ")}`).toBeLessThanOrEqual(INITIAL_JS_BUDGET_GZ);
    },
    240_000,
  );
});
