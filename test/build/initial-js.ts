/**
 * What a page loads before it can paint: the scripts index.html names (entry, modulepreloads) and the
 * route's chunk, each with its static imports (a dynamic `import()` loads later, off that path).
 * Pure: reads a Vite build manifest and the built index.html; the test measures the files.
 */

/** One chunk in Vite's `.vite/manifest.json` (the fields this reads). */
export type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
};
export type Manifest = Record<string, ManifestChunk>;

/** The JS files index.html loads up front: module scripts and modulepreload links (paths without the leading `/`). */
export function htmlScripts(html: string): string[] {
  const out: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i").exec(tag)?.[1];
    const isScript = /^<script/i.test(tag);
    const url = isScript ? attr("src") : /^modulepreload$/i.test(attr("rel") ?? "") ? attr("href") : undefined;
    if (url && !/^[a-z]+:|^\/\//i.test(url)) out.push(url.replace(/^\.?\//, ""));
  }
  return out;
}

/** `key`'s file and, transitively, the files of its static imports. Throws on a key the manifest lacks. */
export function staticClosure(manifest: Manifest, key: string): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (k: string) => {
    if (seen.has(k)) return;
    seen.add(k);
    const chunk = manifest[k];
    if (!chunk) throw new Error(`the build manifest has no chunk "${k}"`);
    files.add(chunk.file);
    for (const i of chunk.imports ?? []) visit(i);
  };
  visit(key);
  return [...files];
}

/**
 * The JS a page loads before its first paint: what index.html loads (each script's static imports
 * followed through the manifest) plus the route chunk `route` (a manifest key such as
 * `src/views/SessionView.tsx`) and its static imports. Sorted, no duplicates.
 */
export function initialFiles(manifest: Manifest, html: string, route: string | null): string[] {
  const byFile = new Map(Object.entries(manifest).map(([k, c]) => [c.file, k]));
  const files = new Set<string>();
  for (const f of htmlScripts(html)) {
    const key = byFile.get(f);
    // A script outside the module graph (e.g. a plain file from public/) counts as itself.
    for (const x of key ? staticClosure(manifest, key) : [f]) files.add(x);
  }
  if (route !== null) {
    if (!manifest[route]?.isDynamicEntry) throw new Error(`"${route}" is not a lazily loaded chunk of its own in this build`);
    for (const x of staticClosure(manifest, route)) files.add(x);
  }
  return [...files].sort();
}
