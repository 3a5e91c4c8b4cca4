/**
 * Bytes in a string, for the waiting room's packed entries (stream-waiting-vote.ts, stream-waiting-keys.ts): each
 * byte is a char 0-255, so a string of them stays one byte a char in V8, with 16 bytes of header and no pointers.
 */
import { BASE32, base32 } from '../lib/base32';

/**
 * Pieces of text many entries share (an id's prefix, a DID's method), kept once and named by their index in a byte:
 * at most 255, added as met (a handful on a network), never removed, so an index means the same piece for as long as
 * the room lives.
 */
export class Pieces {
  private readonly pieces: string[] = [];

  /** The index of `s.slice(start, end)`, added if new; -1 when the table is full. */
  indexOf(s: string, start: number, end: number): number {
    const pieces = this.pieces;
    const length = end - start;
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? '';
      if (piece.length === length && s.startsWith(piece, start)) return i;
    }
    if (pieces.length >= 255) return -1;
    pieces.push(copyOf(s, start, end));
    return pieces.length - 1;
  }

  at(index: number): string {
    return this.pieces[index] ?? '';
  }
}

/**
 * `s.slice(start, end)` as a string of its own: V8 makes a slice of 13 chars or more a view that keeps all of `s`
 * alive, and what a released event carries may be kept for long (its author among the interest's people); a join
 * of two non-empty pieces is copied into a new flat string.
 */
export function copyOf(s: string, start: number, end: number): string {
  if (end - start < 2) return s.slice(start, end);
  const middle = (start + end) >> 1;
  return [s.slice(start, middle), s.slice(middle, end)].join('');
}

// A number's 8 bytes, through one shared buffer (a typed array per call would cost more than the packing).
const float = new Float64Array(1);
const floatBytes = new Uint8Array(float.buffer);
const TWO_32 = 2 ** 32;

/** Whether `n` fits 6 bytes (pushNumber's short form): an integer from 0 to 2^48, as ms and positions are. */
export const fitsShort = (n: number): boolean => Number.isInteger(n) && n >= 0 && n < 2 ** 48;

/** The bytes of `n`: 6 of an integer (`short`: fitsShort) or the 8 of any number, little-endian. */
export function pushNumber(codes: number[], n: number, short: boolean): void {
  if (short) {
    const low = n % TWO_32;
    const high = (n - low) / TWO_32;
    codes.push(low & 0xff, (low >>> 8) & 0xff, (low >>> 16) & 0xff, low >>> 24, high & 0xff, high >>> 8);
    return;
  }
  float[0] = n;
  for (let i = 0; i < 8; i++) codes.push(floatBytes[i] ?? 0);
}

/** The number pushNumber wrote at `at` (6 bytes if `short`, else 8). */
export function numberAt(s: string, at: number, short: boolean): number {
  if (short) {
    const low =
      (s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8) | (s.charCodeAt(at + 2) << 16)) +
      s.charCodeAt(at + 3) * 2 ** 24;
    return low + uint16At(s, at + 4) * TWO_32;
  }
  for (let i = 0; i < 8; i++) floatBytes[i] = s.charCodeAt(at + i);
  return float[0] ?? NaN;
}

export const uint16At = (s: string, at: number): number => s.charCodeAt(at) | (s.charCodeAt(at + 1) << 8);

const BASE32_VALUE = new Int8Array(128).fill(-1);
for (let v = 0; v < 32; v++) BASE32_VALUE[BASE32.charCodeAt(v)] = v;

/** Whether every char of `s.slice(start, end)` is one of base32's (lower case): pushText5 can pack it. */
export function isBase32(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = s.charCodeAt(i);
    if (code >= 128 || (BASE32_VALUE[code] ?? -1) < 0) return false;
  }
  return true;
}

/**
 * `s.slice(start, end)`, all base32 chars (isBase32), at 5 bits a char: a DID's 24 chars in 15 bytes, a record key's
 * 13 in 9 (their count is kept beside: text5At).
 */
export function pushText5(codes: number[], s: string, start: number, end: number): void {
  let buffer = 0;
  let bits = 0;
  for (let i = start; i < end; i++) {
    buffer = ((buffer << 5) | (BASE32_VALUE[s.charCodeAt(i)] ?? 0)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      codes.push((buffer >>> bits) & 0xff);
    }
  }
  if (bits > 0) codes.push((buffer << (8 - bits)) & 0xff);
}

/** How many bytes pushText5 writes for `chars` chars. */
export const text5Bytes = (chars: number): number => Math.ceil((chars * 5) / 8);

/** The `chars` chars pushText5 wrote at `at`. */
export function text5At(s: string, at: number, chars: number): string {
  const codes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (let i = at; codes.length < chars; i++) {
    buffer = ((buffer << 8) | s.charCodeAt(i)) & 0xfff;
    bits += 8;
    while (bits >= 5 && codes.length < chars) {
      bits -= 5;
      codes.push(BASE32.charCodeAt((buffer >>> bits) & 31));
    }
  }
  return String.fromCharCode(...codes);
}

/**
 * The bytes of a multibase `b` (base32) text such as a CID's, pushed onto `codes` (their count returned), when
 * writing them out again (base32At) gives this very text: lower case, unpadded, no stray bits. Else -1, `codes` as
 * it was.
 */
export function pushBase32(codes: number[], text: string): number {
  const chars = text.length - 1;
  const count = Math.floor((chars * 5) / 8);
  if (text.charCodeAt(0) !== 98 || Math.ceil((count * 8) / 5) !== chars || count > 255) return -1;
  if (!isBase32(text, 1, text.length)) return -1;
  const from = codes.length;
  let buffer = 0;
  let bits = 0;
  for (let i = 1; i < text.length; i++) {
    buffer = ((buffer << 5) | (BASE32_VALUE[text.charCodeAt(i)] ?? 0)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      codes.push((buffer >>> bits) & 0xff);
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) {
    codes.length = from;
    return -1;
  }
  return count;
}

/** `b` and the base32 of `count` bytes of `s` from `at` (a released like's CID: rare, so a copy of its bytes). */
export function base32At(s: string, at: number, count: number): string {
  return base32(
    'b',
    Uint8Array.from({ length: count }, (_, i) => s.charCodeAt(at + i)),
  );
}
