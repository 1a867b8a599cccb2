import { inflateSync } from 'node:zlib';

/** A decoded PNG: 8-bit RGBA pixels, row by row. */
export interface Image {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

/**
 * Decodes the PNGs Chromium writes (8-bit truecolour, with or without alpha, not interlaced), enough for a
 * spec to look at the pixels of a screenshot without an image package.
 */
export function decodePng(png: Buffer): Image {
  if (png.readUInt32BE(0) !== 0x89504e47) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(width * height * 4);
  let previous = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = new Uint8Array(stride);
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? row[x - channels]! : 0;
      const b = previous[x]!;
      const c = x >= channels ? previous[x - channels]! : 0;
      const predictor = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      row[x] = (line[x]! + predictor) & 0xff;
    }
    for (let x = 0; x < width; x++) {
      const target = (y * width + x) * 4;
      out[target] = row[x * channels]!;
      out[target + 1] = row[x * channels + 1]!;
      out[target + 2] = row[x * channels + 2]!;
      out[target + 3] = channels === 4 ? row[x * channels + 3]! : 255;
    }
    previous = row;
  }
  return { width, height, rgba: out };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** The pixels of a rectangle (clipped to the image) that differ clearly from the rectangle's most common colour. */
export function inkIn(image: Image, box: { x: number; y: number; width: number; height: number }): { pixels: number; ink: number } {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(image.height, Math.ceil(box.y + box.height));
  const counts = new Map<number, number>();
  const colour = (x: number, y: number) => {
    const i = (y * image.width + x) * 4;
    return (image.rgba[i]! << 16) | (image.rgba[i + 1]! << 8) | image.rgba[i + 2]!;
  };
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) counts.set(colour(x, y), (counts.get(colour(x, y)) ?? 0) + 1);
  const background = [...counts.entries()].sort((p, q) => q[1] - p[1])[0]?.[0] ?? 0;
  let ink = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const c = colour(x, y);
      const distance = Math.abs((c >> 16) - (background >> 16)) + Math.abs(((c >> 8) & 0xff) - ((background >> 8) & 0xff)) + Math.abs((c & 0xff) - (background & 0xff));
      if (distance > 96) ink++;
    }
  }
  return { pixels: (x1 - x0) * (y1 - y0), ink };
}

/** How many distinct colours the image has (a blank page has one). */
export function colourCount(image: Image): number {
  const seen = new Set<number>();
  for (let i = 0; i < image.rgba.length; i += 4) seen.add((image.rgba[i]! << 16) | (image.rgba[i + 1]! << 8) | image.rgba[i + 2]!);
  return seen.size;
}
