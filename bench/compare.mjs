/**
 * Side-by-side rows for `npm run bench`: Baton's join / catch-up / live figures (project `bench`,
 * bench/join.bench-run.ts) next to HAPI's on the same session content (project `bench-peers`,
 * bench/peers/hapi.bench-run.ts), matched by the `data` ({ peer, kind, size }) the two sides print.
 * The issue-20 targets: join ≤ 2× HAPI's bytes, catch-up ≤ 1.5×, live latency ≤ 1/5. Bytes compare what
 * each puts on the wire: Baton's frames deflated (its sockets negotiate permessage-deflate) vs HAPI's gzip.
 */

const KB = (b) => `${(b / 1024).toFixed(1)} KB`;

/** What each kind is compared on, and its target (Baton / HAPI). */
const KINDS = {
  join: { title: (size) => `join, ${size}: Baton vs HAPI 0.30.7 (bytes on the wire)`, max: 2, target: "≤ 2× HAPI" },
  catchup: { title: (size) => `catch-up after ${size} missed: Baton vs HAPI 0.30.7 (bytes on the wire)`, max: 1.5, target: "≤ 1.5× HAPI" },
  live: { title: () => "live: an answer → a second viewer, Baton vs HAPI 0.30.7 (p50)", max: 0.2, target: "≤ 1/5 of HAPI" },
};

function measured(kind, b, h) {
  if (kind === "live") return `Baton p50 ${b.p50.toFixed(1)} / p90 ${b.p90.toFixed(1)} ms (room → viewer socket) vs HAPI p50 ${h.p50.toFixed(1)} / p90 ${h.p90.toFixed(1)} ms (hub → SSE)`;
  const extra = kind === "catchup" ? ` (${h.how})` : "";
  return (
    `Baton ${KB(b.deflate)} permessage-deflate (${KB(b.bytes)} uncompressed), ${b.ms} ms to ready vs ` +
    `HAPI ${KB(h.bytes)} gzip (${KB(h.decoded)} decoded)${extra}, ${h.ms} ms`
  );
}

/** Comparison rows for every (kind, size) both peers measured; rows without both sides are named as missing. */
export function compareRows(rows) {
  const side = (peer) => new Map(rows.filter((r) => r.data?.peer === peer).map((r) => [`${r.data.kind}|${r.data.size}`, r.data]));
  const baton = side("baton");
  const hapi = side("hapi");
  const out = [];
  for (const [key, b] of baton) {
    const spec = KINDS[b.kind];
    if (!spec) continue;
    const h = hapi.get(key);
    if (!h) {
      out.push({ figure: spec.title(b.size), measured: "HAPI not measured in this run (see the bench-peers output)", target: spec.target, ok: false });
      continue;
    }
    // On the wire both are compressed: Baton's sockets negotiate permessage-deflate by default (the
    // `wire:` rows measure it on a real socket); here its frames are deflated as one stream, as that does.
    const ratio = b.kind === "live" ? b.p50 / h.p50 : b.deflate / h.bytes;
    out.push({ figure: spec.title(b.size), measured: measured(b.kind, b, h), ratio: +ratio.toFixed(ratio < 10 ? 2 : 0), target: spec.target, ok: ratio <= spec.max });
  }
  return out;
}
