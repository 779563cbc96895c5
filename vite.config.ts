import { cloudflare } from "@cloudflare/vite-plugin";
import solid from "vite-plugin-solid";
import { defineConfig, type Plugin } from "vite";
import { assetHeadersFile } from "./worker/security-headers.ts";

/** Writes the static assets' `_headers` (security headers on every page) into the client build. */
function assetHeaders(): Plugin {
  return {
    name: "baton-asset-headers",
    applyToEnvironment: (env) => env.name === "client",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "_headers", source: assetHeadersFile() });
    },
  };
}

/** `BATON_VAR_X=v` in the environment overrides the Worker var X locally (e.g. BATON_VAR_AUTH_MODE=builtin). */
const varOverrides = Object.fromEntries(
  Object.entries(process.env)
    .filter(([k, v]) => k.startsWith("BATON_VAR_") && v !== undefined)
    .map(([k, v]) => [k.slice("BATON_VAR_".length), v as string]),
);

// `vite` (npm run dev): the SolidJS client with hot reload and the Worker + Durable Objects in workerd.
// `vite build`: dist/client + dist/baton (the Worker), what `npm start` serves with `wrangler dev` and
// `npm run deploy` uploads — so local overrides never go into a build.
export default defineConfig(({ command }) => ({
  root: "client",
  publicDir: "public",
  plugins: [
    solid(),
    assetHeaders(),
    cloudflare({
      configPath: "../wrangler.jsonc",
      persistState: { path: process.env.BATON_STATE_DIR ?? "../.wrangler/state" },
      config: command === "serve" ? { vars: { ...varOverrides, LOCAL_STACK: "1" } } : {},
    }),
  ],
  // The manifest lets test/build/initial-js.test.ts follow what each page loads before it can paint.
  build: { outDir: "../dist", emptyOutDir: true, manifest: true },
  server: { host: "127.0.0.1", port: Number(process.env.PORT ?? 8787), strictPort: false, cors: false },
}));
