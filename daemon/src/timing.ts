/** Small promise helpers: a deferred value and a timeout that rejects with a recognisable error. */

export type Deferred<T> = { promise: Promise<T>; resolve(value: T): void; settled: boolean };

export function deferred<T>(): Deferred<T> {
  let resolveFn!: (value: T) => void;
  const d: Deferred<T> = {
    promise: new Promise<T>((r) => (resolveFn = r)),
    settled: false,
    resolve(value: T) {
      if (d.settled) return;
      d.settled = true;
      resolveFn(value);
    },
  };
  return d;
}

export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${ms} ms`);
    this.name = "TimeoutError";
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Resolves once `lastAt()` (the time something last arrived) is `quietMs` behind, bounded by `maxMs` from the
 * call, or sooner when `live()` turns false. A replay has no end marker: its quiet is the end.
 */
export async function untilQuiet(lastAt: () => number, quietMs: number, maxMs: number, live: () => boolean): Promise<void> {
  const start = Date.now();
  while (live() && Date.now() - start < maxMs) {
    const quietFor = Date.now() - Math.max(lastAt(), start);
    if (quietFor >= quietMs) return;
    await delay(quietMs - quietFor);
  }
}
