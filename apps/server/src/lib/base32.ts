/** RFC 4648's base32 alphabet, lower case, as multibase `b` (CIDs) and AT Protocol's record keys use it. */
export const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * `prefix` and the base32 of `bytes` (lower case, unpadded): a CID's text with prefix `b`. Written out in one flat
 * string (a CID's text built piece by piece stays a tree of ~10 strings in V8's heap; issue 31).
 */
export function base32(prefix: string, bytes: ArrayLike<number>): string {
  const codes: number[] = [];
  for (let i = 0; i < prefix.length; i++) codes.push(prefix.charCodeAt(i));
  let buffer = 0;
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    buffer = ((buffer << 8) | (bytes[i] ?? 0)) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      codes.push(BASE32.charCodeAt((buffer >>> bits) & 31));
    }
  }
  if (bits > 0) codes.push(BASE32.charCodeAt((buffer << (5 - bits)) & 31));
  return String.fromCharCode(...codes);
}
