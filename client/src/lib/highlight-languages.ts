/**
 * Which highlight.js grammar a changed file gets (issue 28 #2: syntax highlighting in the changes view), from its
 * name's extension; each grammar is its own chunk, loaded the first time a file in that language is shown.
 * Unknown names get none (plain text). Plain apart from the loaders.
 */
import type { LanguageFn } from "highlight.js";

type Loader = () => Promise<{ default: LanguageFn }>;

const LOADERS = {
  bash: () => import("highlight.js/lib/languages/bash"),
  c: () => import("highlight.js/lib/languages/c"),
  cpp: () => import("highlight.js/lib/languages/cpp"),
  csharp: () => import("highlight.js/lib/languages/csharp"),
  css: () => import("highlight.js/lib/languages/css"),
  diff: () => import("highlight.js/lib/languages/diff"),
  dockerfile: () => import("highlight.js/lib/languages/dockerfile"),
  go: () => import("highlight.js/lib/languages/go"),
  ini: () => import("highlight.js/lib/languages/ini"),
  java: () => import("highlight.js/lib/languages/java"),
  javascript: () => import("highlight.js/lib/languages/javascript"),
  json: () => import("highlight.js/lib/languages/json"),
  kotlin: () => import("highlight.js/lib/languages/kotlin"),
  lua: () => import("highlight.js/lib/languages/lua"),
  makefile: () => import("highlight.js/lib/languages/makefile"),
  markdown: () => import("highlight.js/lib/languages/markdown"),
  php: () => import("highlight.js/lib/languages/php"),
  python: () => import("highlight.js/lib/languages/python"),
  ruby: () => import("highlight.js/lib/languages/ruby"),
  rust: () => import("highlight.js/lib/languages/rust"),
  scss: () => import("highlight.js/lib/languages/scss"),
  sql: () => import("highlight.js/lib/languages/sql"),
  swift: () => import("highlight.js/lib/languages/swift"),
  typescript: () => import("highlight.js/lib/languages/typescript"),
  xml: () => import("highlight.js/lib/languages/xml"),
  yaml: () => import("highlight.js/lib/languages/yaml"),
} as const satisfies Record<string, Loader>;

export type Language = keyof typeof LOADERS;

const BY_EXTENSION: Record<string, Language> = {
  sh: "bash", bash: "bash", zsh: "bash",
  c: "c", h: "c",
  cc: "cpp", cpp: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp",
  cs: "csharp",
  css: "css",
  diff: "diff", patch: "diff",
  go: "go",
  ini: "ini", toml: "ini", cfg: "ini", conf: "ini",
  java: "java",
  js: "javascript", mjs: "javascript", cjs: "javascript", jsx: "javascript",
  json: "json", jsonc: "json",
  kt: "kotlin", kts: "kotlin",
  lua: "lua",
  mk: "makefile",
  md: "markdown", markdown: "markdown",
  php: "php",
  py: "python", pyi: "python",
  rb: "ruby",
  rs: "rust",
  scss: "scss",
  sql: "sql",
  swift: "swift",
  ts: "typescript", mts: "typescript", cts: "typescript", tsx: "typescript",
  html: "xml", htm: "xml", xml: "xml", svg: "xml", vue: "xml",
  yaml: "yaml", yml: "yaml",
};

const BY_NAME: Record<string, Language> = { Dockerfile: "dockerfile", Makefile: "makefile", GNUmakefile: "makefile", Gemfile: "ruby", Rakefile: "ruby" };

/** The grammar for a file's path (its last segment's extension, or a well-known name); null: plain text. */
export function languageOf(path: string): Language | null {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const known = BY_NAME[name];
  if (known) return known;
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return null;
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? null;
}

export const loadGrammar = (language: Language): Promise<LanguageFn> => LOADERS[language]().then((m) => m.default);
