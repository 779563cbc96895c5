// Renders the app icons (client/public/icons/*.png, favicons) from the SVGs below with sharp. Run by hand
// after changing the mark: `node scripts/make-icons.mjs`; the PNGs are committed.
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";

const OUT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "client", "public");

/** The mark: a baton (a bar with a rounded grip) across the brand gradient (home.css .brand-mark). */
function mark({ size = 512, inset = 0, radius = 112, dot = false } = {}) {
  // `inset`: the share of each side kept clear (maskable icons keep their content in the middle 80 %).
  const s = size;
  const c = s / 2;
  const k = (1 - 2 * inset) * (s / 512);
  const bar = `<g transform="translate(${c} ${c}) rotate(-45) scale(${k})">
      <rect x="-150" y="-34" width="300" height="68" rx="34" fill="#ffffff"/>
      <rect x="70" y="-34" width="80" height="68" rx="34" fill="#cfd8ff"/>
    </g>`;
  const alert = dot ? `<circle cx="${s * 0.78}" cy="${s * 0.22}" r="${s * 0.2}" fill="#c4320a" stroke="#ffffff" stroke-width="${s * 0.05}"/>` : "";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${s}" height="${s}" viewBox="0 0 ${s} ${s}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#3a5bd9"/><stop offset="1" stop-color="#7b5bd9"/></linearGradient></defs>
    <rect width="${s}" height="${s}" rx="${radius * (s / 512)}" fill="url(#g)"/>
    ${bar}${alert}
  </svg>`;
}

const png = (svg, file) => sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toFile(join(OUT, file));

await png(mark({ size: 192 }), "icons/icon-192.png");
await png(mark({ size: 512 }), "icons/icon-512.png");
// Maskable: full bleed (the platform cuts its own shape), the baton inside the safe zone.
await png(mark({ size: 512, radius: 0, inset: 0.1 }), "icons/maskable-512.png");
await png(mark({ size: 180, radius: 0 }), "icons/apple-touch-icon.png");
writeFileSync(join(OUT, "favicon.svg"), mark({ size: 64, radius: 14 }));
// The tab's favicon while something waits for the person (client/src/push/tab-attention.ts).
writeFileSync(join(OUT, "favicon-alert.svg"), mark({ size: 64, radius: 14, dot: true }));
console.log(`icons written to ${OUT}`);
