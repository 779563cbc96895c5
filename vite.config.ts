import { cloudflare } from "@cloudflare/vite-plugin";
import solid from "vite-plugin-solid";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
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

/**
 * The installable app: web app manifest and the service worker built from client/src/sw.ts (precache of
 * the app shell, Web Push). Client build only (the Worker environment has no pages); none under `vite`
 * (npm run dev): a worker caching modules would fight hot reload.
 */
function pwa(): Plugin[] {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "src",
    filename: "sw.ts",
    outDir: "../dist/client",
    injectRegister: false, // registered by client/src/push/register-sw.ts
    manifestFilename: "manifest.webmanifest",
    // Behind Cloudflare Access the manifest is fetched with the Access cookie.
    useCredentials: true,
    devOptions: { enabled: false },
    injectManifest: { globPatterns: ["**/*.{js,css,html,svg,png,woff2}"] },
    manifest: {
      id: "/",
      name: "Baton",
      short_name: "Baton",
      description: "Your coding agents, live in every browser.",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#3a5bd9", // --accent in styles.css
      background_color: "#f6f6f3", // --bg
      icons: [
        { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      ],
    },
  }).map((p) => ({ ...p, applyToEnvironment: (env) => env.name === "client" }));
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
    pwa(),
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
