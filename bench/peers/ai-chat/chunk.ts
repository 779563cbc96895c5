/** The chunk text both sides stream in the fan-out figures (the same as bench/room.bench-run.ts). */
export const fanOutChunk = (i: number) => `chunk ${i} ${"x".repeat(60)}\n`;
