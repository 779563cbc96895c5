// `npm run build:daemon`: bundles the daemon CLI and the demo agent (with shared/ and every run-time
// dependency) into daemon/dist/, so the npm package `baton-acp` runs on plain Node with no install step
// beyond its own tarball and no tsx. Third-party license texts go to daemon/dist/THIRD_PARTY_LICENSES.md.
// `--out <dir>` builds elsewhere (npm test builds one for its run, so its spawned daemons and demo agents skip tsx).
import { build } from "esbuild";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DAEMON = join(ROOT, "daemon");
const outArg = process.argv.indexOf("--out");
const OUT = outArg > 0 && process.argv[outArg + 1] ? resolve(process.argv[outArg + 1]) : join(DAEMON, "dist");
const pkg = JSON.parse(readFileSync(join(DAEMON, "package.json"), "utf8"));
/** The oldest Node the bundle is compiled for: daemon/package.json `engines.node` (see daemon/README.md). */
const TARGET = `node${/\d+/.exec(pkg.engines.node)[0]}`;

rmSync(OUT, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { baton: join(DAEMON, "src", "cli", "cli.ts"), "demo-agent": join(DAEMON, "demo-agent", "main.ts") },
  outdir: OUT,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: TARGET,
  // ws's optional native speed-ups: loaded in a try/catch when installed, never required.
  external: ["bufferutil", "utf-8-validate"],
  // CommonJS dependencies (ws) call require() for Node built-ins, which an ES module does not have.
  banner: { js: '#!/usr/bin/env node\nimport { createRequire as __batonCreateRequire } from "node:module";\nconst require = __batonCreateRequire(import.meta.url);' },
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});
chmodSync(join(OUT, "baton.mjs"), 0o755);

// Every bundled package's license, since the bundle carries their code.
const packages = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const parts = input.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0) continue;
  const name = parts[at + 1].startsWith("@") ? `${parts[at + 1]}/${parts[at + 2]}` : parts[at + 1];
  // Metafile paths are relative to absWorkingDir (and may climb out of it through a symlinked node_modules).
  const dir = resolve(ROOT, ...parts.slice(0, at + 1 + name.split("/").length));
  packages.set(name, dir);
}
const sections = [];
for (const [name, dir] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
  if (!file) throw new Error(`${name}: no license file to ship with the bundle (${relative(ROOT, dir).split(sep).join("/")})`);
  sections.push(`## ${name} ${meta.version} (${meta.license})\n\n${readFileSync(join(dir, file), "utf8").trim()}\n`);
}
writeFileSync(join(OUT, "THIRD_PARTY_LICENSES.md"), `# Third-party code bundled in ${pkg.name}\n\n${sections.join("\n")}`);
if (!existsSync(join(OUT, "demo-agent.mjs"))) throw new Error("demo agent was not built");
// stderr: `npm pack --json` prints its JSON on stdout after this script (prepack).
process.stderr.write(`built ${pkg.name} ${pkg.version} → ${relative(ROOT, OUT)}/ (baton.mjs, demo-agent.mjs; bundled: ${[...packages.keys()].join(", ")})\n`);
