/**
 * Starting a server on a port picked as free is a race: between the pick and the server's bind, another
 * process (a stack started by a parallel test run, or wrangler's own internal sockets) can take that port or
 * one of the runtime's. CI hit it: workerd said "Address already in use" and every file on the shared stack
 * failed. A start that loses the race is retried on a fresh port; any other failure is not.
 */

/** A collision lost twice in a row is rare; three in a row means something else holds ports. */
export const PORT_ATTEMPTS = 3;

/** Whether a start failed because a port was taken (our pre-check's PortInUseError, or the runtime's bind). */
export function lostPortRace(err: unknown): boolean {
  const text = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /Address already in use|EADDRINUSE|is already in use \(another Baton\?\)/.test(text);
}

/** Calls `start` with a port from `pick`, again with a fresh one (at most `attempts` in all) while it loses the port race. */
export async function onFreePort<T>(start: (port: number) => Promise<T>, pick: () => Promise<number>, attempts = PORT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await pick();
    try {
      return await start(port);
    } catch (err) {
      if (attempt >= attempts || !lostPortRace(err)) throw err;
    }
  }
}
