/** Every dependency in package.json is used (issue 32 #6): imported by the sources, or a tool named below with what runs it. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..", "..");
const SOURCE_DIRS = ["client", "worker", "shared", "daemon", "test", "bench", "scripts"];
const ROOT_FILES = ["vite.config.ts", "vitest.config.ts", "vitest.soak.config.ts"];
const SKIP = new Set(["node_modules", "dist", ".wrangler", "public"]);

/** Packages used without an import in our sources: what uses them. */
const TOOLS: Readonly<Record<string, string>> = {
  node: "pins Node 22 for every npm script",
  wrangler: "wrangler dev / deploy (scripts/dev-stack.mjs, scripts/deploy.mjs)",
  "@cloudflare/workers-types": "the Worker's global types (tsconfig types)",
  "@types/node": "Node's types (tsconfig types)",
  "@types/ws": "types of ws",
  jsdom: "the client project's test environment",
  "typescript-7": "TypeScript 7's native tsc, run by path for the type checks (scripts/typecheck.mjs)",
};

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(m?[jt]sx?|d\.mts)$/.test(name)) out.push(path);
  }
  return out;
}

/** The real agents the tests drive: installed on demand into the agents' cache (scripts/install-agents.mjs). */
const AGENT_MANIFEST = join(ROOT, "test", "agents", "manifest.json");

describe("package.json dependencies", () => {
  it("no real agent is a dependency: each one is pinned in the agents' manifest and installed on demand (issue 32 #8)", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const manifest = JSON.parse(readFileSync(AGENT_MANIFEST, "utf8")) as { agents: Record<string, { packages: Record<string, string> }> };
    const agentPackages = Object.values(manifest.agents).flatMap((a) => Object.keys(a.packages));
    expect(agentPackages).toContain("@google/gemini-cli");
    expect(manifest.agents.gemini?.packages["@google/gemini-cli"]).toBe("0.61.0");
    const deps = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)];
    expect(deps.filter((d) => agentPackages.includes(d))).toEqual([]);
    // Nor in the lock (an `npm ci` would install it into node_modules again).
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => agentPackages.some((a) => p.endsWith(`node_modules/${a}`)))).toEqual([]);
  });

  it("each one is imported by the sources or is a named tool", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const files = [...SOURCE_DIRS.flatMap((d) => sourceFiles(join(ROOT, d))), ...ROOT_FILES.map((f) => join(ROOT, f))];
    const text = files.map((f) => readFileSync(f, "utf8")).join("\n");
    const used = (name: string) => new RegExp(`(from |import\\(|require\\(|resolve\\(|import )["'\`]${name.replace(/[/.]/g, "\\$&")}(/[^"'\`]*)?["'\`]`).test(text);
    const unused = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((name) => !(name in TOOLS) && !used(name));
    expect(unused).toEqual([]);
    // A tool that the sources import after all needs no entry: keep the list to what it says.
    expect(Object.keys(TOOLS).filter(used)).toEqual([]);
  });

  it("one Cloudflare runtime: a single workerd, miniflare and wrangler in the lock (issue 32 #7)", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string }> };
    const versions = (name: string) => [...new Set(Object.entries(lock.packages).filter(([p]) => p.endsWith(`node_modules/${name}`)).map(([, v]) => v.version))];
    // `npm run dev` (the vite plugin), `npm start` (wrangler) and the tests (the vitest plugin) run the same workerd.
    for (const name of ["workerd", "miniflare", "wrangler"]) expect({ name, versions: versions(name) }).toEqual({ name, versions: [expect.any(String)] });
  });
});
