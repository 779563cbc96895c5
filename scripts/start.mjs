// `npm start`: everything local — Worker + Durable Objects in workerd, the client, and a daemon
// with the built-in demo agent, auto-paired. No credentials, no internet.
import { PortInUseError, startStack } from "./dev-stack.mjs";

const port = Number(process.env.PORT ?? 8787);
// `npm run dev`: the client through Vite's dev server with hot reload (for working on Baton itself).
const dev = process.argv.includes("--dev");
// BATON_STATE_DIR: where the local D1, Durable Objects and the paired token live (default .wrangler/state).
const stack = await startStack({ port, dev, stateDir: process.env.BATON_STATE_DIR || undefined }).catch((err) => {
  if (!(err instanceof PortInUseError)) throw err;
  console.error(`\n  Baton did not start: ${err.message}\n`);
  process.exit(1);
});
console.log(
  stack.daemon
    ? `\n  Baton is running: ${stack.url}\n  (demo agent on this machine; Ctrl+C to stop)\n`
    : `\n  Baton is running: ${stack.url}\n  (sign in, then pair this machine from Machines; Ctrl+C to stop)\n`,
);
let stopping = false;
const stop = async () => {
  stopping = true;
  await stack.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
stack.server.on("exit", (code) => {
  if (stopping) return;
  console.error(`dev server exited (${code})`);
  process.exit(code ?? 1);
});
