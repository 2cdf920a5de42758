// A topic's share-card image, drawn on the server without a browser or a font file: a PNG (which every
// crawler accepts, unlike SVG) of the balance of stances as a bar, with the counts and the site's name in
// a small pixel font. Encoded by hand (signature, IHDR, IDAT through node:zlib, IEND).
import { deflateSync } from 'node:zlib';

/** The size Open Graph and Twitter's large summary card expect (1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [17, 24, 39];
const TEXT: Rgb = [243, 244, 246];
const AGREE: Rgb = [22, 163, 74];
const DISAGREE: Rgb = [220, 38, 38];
const UNSURE: Rgb = [148, 163, 184];
const EMPTY: Rgb = [55, 65, 81];

/** A 5×7 pixel font: the letters and digits the image writes, each row five cells ('#' lit). */
const GLYPHS: Record<string, string[]> = {
  ' ': ['     ', '     ', '     ', '     ', '     ', '     ', '     '],
  '0': [' ### ', '#   #', '#  ##', '# # #', '##  #', '#   #', ' ### '],
  '1': ['  #  ', ' ##  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  '2': [' ### ', '#   #', '    #', '   # ', '  #  ', ' #   ', '#####'],
  '3': ['#####', '   # ', '  #  ', '   # ', '    #', '#   #', ' ### '],
  '4': ['   # ', '  ## ', ' # # ', '#  # ', '#####', '   # ', '   # '],
  '5': ['#####', '#    ', '#### ', '    #', '    #', '#   #', ' ### '],
  '6': ['  ## ', ' #   ', '#    ', '#### ', '#   #', '#   #', ' ### '],
  '7': ['#####', '    #', '   # ', '  #  ', ' #   ', ' #   ', ' #   '],
  '8': [' ### ', '#   #', '#   #', ' ### ', '#   #', '#   #', ' ### '],
  '9': [' ### ', '#   #', '#   #', ' ####', '    #', '   # ', ' ##  '],
  A: [' ### ', '#   #', '#   #', '#####', '#   #', '#   #', '#   #'],
  C: [' ### ', '#   #', '#    ', '#    ', '#    ', '#   #', ' ### '],
  D: ['#### ', '#   #', '#   #', '#   #', '#   #', '#   #', '#### '],
  E: ['#####', '#    ', '#    ', '#### ', '#    ', '#    ', '#####'],
  G: [' ### ', '#   #', '#    ', '# ###', '#   #', '#   #', ' ####'],
  I: [' ### ', '  #  ', '  #  ', '  #  ', '  #  ', '  #  ', ' ### '],
  N: ['#   #', '##  #', '# # #', '#  ##', '#   #', '#   #', '#   #'],
  R: ['#### ', '#   #', '#   #', '#### ', '# #  ', '#  # ', '#   #'],
  S: [' ####', '#    ', '#    ', ' ### ', '    #', '    #', '#### '],
  U: ['#   #', '#   #', '#   #', '#   #', '#   #', '#   #', ' ### '],
  X: ['#   #', '#   #', ' # # ', '  #  ', ' # # ', '#   #', '#   #'],
};

class Canvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = new Uint8Array(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  rect(x: number, y: number, w: number, h: number, color: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y0 = Math.max(0, Math.round(y));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let row = y0; row < y1; row++) for (let col = x0; col < x1; col++) this.pixels.set(color, (row * this.width + col) * 3);
  }

  /** `text` (characters the font lacks are left blank) at a cell size of `scale` pixels. */
  text(x: number, y: number, text: string, scale: number, color: Rgb): void {
    [...text.toUpperCase()].forEach((char, i) => {
      const glyph = GLYPHS[char] ?? GLYPHS[' ']!;
      glyph.forEach((line, row) => {
        for (let col = 0; col < line.length; col++)
          if (line[col] === '#') this.rect(x + (i * 6 + col) * scale, y + row * scale, scale, scale, color);
      });
    });
  }
}

export interface Balance {
  agree: number;
  disagree: number;
  unsure: number;
}

/** The card image of a topic with this balance of stances, as PNG bytes. */
export function balanceCardPng(balance: Balance): Uint8Array {
  const canvas = new Canvas(CARD_WIDTH, CARD_HEIGHT, BACKGROUND);
  const margin = 80;
  canvas.text(margin, margin, 'CRUX', 12, TEXT);
  // The bar: agree, unsure, disagree in proportion; a debate nobody has taken a side in is one grey bar.
  const barY = 260;
  const barHeight = 90;
  const barWidth = CARD_WIDTH - 2 * margin;
  const total = balance.agree + balance.unsure + balance.disagree;
  canvas.rect(margin, barY, barWidth, barHeight, EMPTY);
  if (total > 0) {
    let x = margin;
    for (const [n, color] of [
      [balance.agree, AGREE],
      [balance.unsure, UNSURE],
      [balance.disagree, DISAGREE],
    ] as const) {
      const w = (barWidth * n) / total;
      canvas.rect(x, barY, w, barHeight, color);
      x += w;
    }
  }
  // The counts, one a line, each beside a square of its colour.
  const scale = 7;
  const items = [
    [`${balance.agree} AGREE`, AGREE],
    [`${balance.unsure} UNSURE`, UNSURE],
    [`${balance.disagree} DISAGREE`, DISAGREE],
  ] as const;
  items.forEach(([label, color], i) => {
    const y = 390 + i * 10 * scale;
    canvas.rect(margin, y, 7 * scale, 7 * scale, color);
    canvas.text(margin + 10 * scale, y, label, scale, TEXT);
  });
  return encodePng(canvas.width, canvas.height, canvas.pixels);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** 8-bit RGB pixels, row by row, as a PNG file (each row unfiltered). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const stride = width * 3;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let row = 0; row < height; row++) raw.set(rgb.subarray(row * stride, (row + 1) * stride), row * (stride + 1) + 1);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', new Uint8Array(0))]),
  );
}
