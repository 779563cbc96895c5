import { cloudflare } from "@cloudflare/vite-plugin";
import solid from "vite-plugin-solid";
import { defineConfig } from "vite";

// One dev server: the SolidJS client (HMR) and the Worker + Durable Objects in workerd.
export default defineConfig({
  root: "client",
  publicDir: "public",
  plugins: [solid(), cloudflare({ configPath: "../wrangler.jsonc", persistState: { path: process.env.BATON_STATE_DIR ?? "../.wrangler/state" } })],
  build: { outDir: "../dist", emptyOutDir: true },
  server: { host: "127.0.0.1", port: Number(process.env.PORT ?? 8787), strictPort: false },
});
