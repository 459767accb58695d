// Draws Gatehouse's icons as PNGs with no image library: shapes are tested per sub-pixel
// (4x4 supersampling for smooth edges) and written with a minimal PNG encoder (node:zlib).
// Output is committed in assets/; rerun after changing a shape: `node scripts/make-icons.mjs`.
//
//   assets/tray-<state>.png (16x16) and tray-<state>@2x.png (32x32), state = idle | pending |
//   breaker | paused. Electron picks the @2x file on high-DPI screens by itself.
//   assets/icon.png (512x512): the app icon electron-builder turns into .icns / .ico.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'assets');

// ---- PNG encoding (RGBA, 8 bits per channel, no interlace) ----

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes `rgba` (size*size*4 bytes) as a PNG file. */
export function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  // Every scanline starts with filter type 0 (none).
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- Drawing: a picture is a list of layers, each a colour and an inside(x, y) test in
// unit coordinates (0..1), painted in order with "over" compositing. ----

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

function render(size, layers) {
  const rgba = Buffer.alloc(size * size * 4);
  const S = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (const { color, inside } of layers) {
        let hits = 0;
        for (let sy = 0; sy < S; sy++) {
          for (let sx = 0; sx < S; sx++) {
            if (inside((px + (sx + 0.5) / S) / size, (py + (sy + 0.5) / S) / size)) hits++;
          }
        }
        const cover = hits / (S * S);
        if (cover === 0) continue;
        const [cr, cg, cb] = hex(color);
        const na = cover + a * (1 - cover);
        r = (cr * cover + r * a * (1 - cover)) / na;
        g = (cg * cover + g * a * (1 - cover)) / na;
        b = (cb * cover + b * a * (1 - cover)) / na;
        a = na;
      }
      const i = (py * size + px) * 4;
      rgba[i] = Math.round(r);
      rgba[i + 1] = Math.round(g);
      rgba[i + 2] = Math.round(b);
      rgba[i + 3] = Math.round(a * 255);
    }
  }
  return encodePng(size, rgba);
}

const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const ring = (cx, cy, r, w) => (x, y) => {
  const d = Math.hypot(x - cx, y - cy);
  return d <= r && d >= r - w;
};
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const roundRect = (x0, y0, x1, y1, rad) => (x, y) => {
  if (!rect(x0, y0, x1, y1)(x, y)) return false;
  const cx = Math.min(Math.max(x, x0 + rad), x1 - rad);
  const cy = Math.min(Math.max(y, y0 + rad), y1 - rad);
  return (x - cx) ** 2 + (y - cy) ** 2 <= rad * rad;
};
const union =
  (...shapes) =>
  (x, y) =>
    shapes.some((s) => s(x, y));
const minus = (a, b) => (x, y) => a(x, y) && !b(x, y);

/** A gate: two posts joined by an arch; `w` is the stroke width (unit coordinates). */
function gate(x0, y0, x1, y1, w) {
  const cx = (x0 + x1) / 2;
  const r = (x1 - x0) / 2;
  const archY = y0 + r;
  const outer = union(rect(x0, archY, x1, y1), (x, y) => y <= archY && circle(cx, archY, r)(x, y));
  const inner = union(
    rect(x0 + w, archY, x1 - w, y1 + 1),
    (x, y) => y <= archY && circle(cx, archY, r - w)(x, y),
  );
  return minus(outer, inner);
}

// ---- The pictures ----

const WHITE = '#ffffff';
const tray = {
  // A quiet grey gate: nothing needs you.
  idle: [{ color: '#8a8f98', inside: gate(0.2, 0.1, 0.8, 0.92, 0.14) }],
  // Amber disc with a gate: someone waits for a decision.
  pending: [
    { color: '#f5a623', inside: circle(0.5, 0.5, 0.48) },
    { color: WHITE, inside: gate(0.3, 0.2, 0.7, 0.8, 0.12) },
  ],
  // Red disc with a bar: a breaker is open.
  breaker: [
    { color: '#e53935', inside: circle(0.5, 0.5, 0.48) },
    { color: WHITE, inside: roundRect(0.2, 0.41, 0.8, 0.59, 0.05) },
  ],
  // Blue ring with two bars: agents are paused.
  paused: [
    { color: '#1e88e5', inside: ring(0.5, 0.5, 0.48, 0.1) },
    { color: '#1e88e5', inside: union(rect(0.34, 0.28, 0.45, 0.72), rect(0.55, 0.28, 0.66, 0.72)) },
  ],
};

const appIcon = [
  { color: '#1e1f22', inside: roundRect(0.06, 0.06, 0.94, 0.94, 0.2) },
  { color: '#f5a623', inside: gate(0.26, 0.18, 0.74, 0.8, 0.075) },
  { color: '#f5a623', inside: rect(0.18, 0.8, 0.82, 0.86) },
];

mkdirSync(out, { recursive: true });
for (const [state, layers] of Object.entries(tray)) {
  writeFileSync(join(out, `tray-${state}.png`), render(16, layers));
  writeFileSync(join(out, `tray-${state}@2x.png`), render(32, layers));
}
writeFileSync(join(out, 'icon.png'), render(512, appIcon));
console.error(`icons written to ${out}`);
