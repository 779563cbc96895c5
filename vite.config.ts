import { cloudflare } from "@cloudflare/vite-plugin";
import solid from "vite-plugin-solid";
import { defineConfig } from "vite";

/** `BATON_VAR_X=v` in the environment overrides the Worker var X locally (e.g. BATON_VAR_AUTH_MODE=builtin). */
const varOverrides = Object.fromEntries(
  Object.entries(process.env)
    .filter(([k, v]) => k.startsWith("BATON_VAR_") && v !== undefined)
    .map(([k, v]) => [k.slice("BATON_VAR_".length), v as string]),
);

// One dev server: the SolidJS client (HMR) and the Worker + Durable Objects in workerd.
export default defineConfig({
  root: "client",
  publicDir: "public",
  plugins: [solid(), cloudflare({ configPath: "../wrangler.jsonc", persistState: { path: process.env.BATON_STATE_DIR ?? "../.wrangler/state" }, config: { vars: varOverrides } })],
  build: { outDir: "../dist", emptyOutDir: true },
  server: { host: "127.0.0.1", port: Number(process.env.PORT ?? 8787), strictPort: false },
});
