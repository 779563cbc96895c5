/** Token bucket: `burst` ops at once, refilled at `perSecond`. Plain; time is passed in. */
export function makeTokenBucket(burst: number, perSecond: number, now: number) {
  let tokens = burst;
  let last = now;
  return {
    take(at: number): boolean {
      tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
      last = at;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}
export type TokenBucket = ReturnType<typeof makeTokenBucket>;
