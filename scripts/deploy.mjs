// `npm run deploy`: D1 migrations on the remote database, build the client + Worker, deploy.
import { execFileSync } from "node:child_process";

const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit" });
run("npx", ["wrangler", "d1", "migrations", "apply", "baton", "--remote"]);
run("npx", ["vite", "build"]);
run("npx", ["wrangler", "deploy", "--config", "dist/baton/wrangler.json"]);
