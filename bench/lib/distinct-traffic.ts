// The distinct-traffic stream's model (issue 31): every decision about frame i (its kind, its account, its ops, the
// collections and subjects) is a pure function of the seed and i, so worker threads build any range of frames alone
// and a relay or a check can recompute an account's DID, handle and key from its number, without a table of them.
// Nothing repeats: accounts arrive at a steady rate all run long (about `newShare` of frames bring a new one), each
// record is new, and the mix of collections is the real network's (NOTES.md, "The real network, 2025–26").
import crypto from 'node:crypto';

export type DistinctParams = {
  frames: number;
  /** Share of commits by an account seen for the first time (the rest: an account of the last `recentFrames`). */
  newShare: number;
  seed: number;
  /** Network time between two frames (the relay's historic peak is 1,500–2,000 events/s). */
  networkRate: number;
  /** Posts naming the programme, and the official account's own posts (each with its likes, reposts, replies). */
  programmePosts: number;
  officialPosts: number;
};

export const OFFICIAL_INDEX = 0xfffffff0;
export const OFFICIAL_HANDLE = 'manaboardhq.bench.test';
export const RECENT_FRAMES = 200_000;

/** 32-bit mix of (seed, i, salt): the random source of every decision (murmur3's finaliser). */
export function hash32(seed: number, i: number, salt: number): number {
  let h =
    Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(i | 0, 0xc2b2ae35) ^ Math.imul(salt, 0x27d4eb2f);
  h ^= Math.floor(i / 4294967296);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export const unit = (seed: number, i: number, salt: number) => hash32(seed, i, salt) / 4294967296;

/**
 * The account of commit frame i: a new account (numbered by the frame that brings it) in `newShare` of frames, else
 * the account of an earlier frame within RECENT_FRAMES (followed back until a frame that brought a new one).
 */
export function accountOf(p: DistinctParams, i: number): number {
  let at = i;
  for (let hops = 0; hops < 64; hops++) {
    if (at === 0 || unit(p.seed, at, 1) < p.newShare) return at;
    at = Math.max(0, at - 1 - Math.floor(unit(p.seed, at, 2) * Math.min(RECENT_FRAMES, at)));
  }
  return at;
}

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
const INVERSE_MUL = (() => {
  // The inverse of the odd multiplier mod 2^32 (Newton's iteration): the DID's first chars give back the account.
  const a = 0x2545f491;
  let x = a;
  for (let k = 0; k < 5; k++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
})();

/** An account's DID: did:plc: + 7 base32 chars that encode its number (scrambled) + 17 from a hash. */
export function didOf(seed: number, account: number): string {
  let x = (Math.imul(account, 0x2545f491) + seed) >>> 0;
  let id = '';
  for (let k = 0; k < 7; k++) {
    id += B32[x & 31];
    x = Math.floor(x / 32);
  }
  for (let k = 0; k < 17; k++) id += B32[(hash32(seed, account, 100 + (k >> 2)) >>> ((k & 3) * 5)) & 31];
  return `did:plc:${id}`;
}

/** The account a DID of this stream names, or null. */
export function accountOfDid(seed: number, did: string): number | null {
  const m = /^did:plc:([a-z2-7]{24})$/.exec(did);
  if (!m?.[1]) return null;
  let x = 0;
  for (let k = 6; k >= 0; k--) x = x * 32 + B32.indexOf(m[1][k] ?? 'a');
  if (x > 0xffffffff) return null;
  const account = Math.imul((x - seed) >>> 0, INVERSE_MUL) >>> 0;
  return didOf(seed, account) === did ? account : null;
}

export const handleOf = (account: number) =>
  account === OFFICIAL_INDEX ? OFFICIAL_HANDLE : `u${account}.bench.test`;

/** Accounts at or above this number are the programme's planted ones (and the official account). */
export const OWN_KEYS_FROM = 0x80000000;
/** Keys the stream's other accounts draw from (each account its own DID document naming one of them). */
export const KEY_POOL = 4096;

/**
 * The account's P-256 signing key's private scalar (32 bytes), from the seed. The planted accounts (those a consumer
 * keeps, so verifies) have keys of their own; every other account signs with one of KEY_POOL keys, named in its own
 * DID document, so every commit of the stream verifies while generation imports a few thousand keys, not 500,000
 * (an import costs as much as a signature).
 */
export const keySlot = (seed: number, account: number) =>
  account >= OWN_KEYS_FROM ? account : hash32(seed, account, 9) % KEY_POOL;

export function privateScalar(seed: number, account: number): Buffer {
  const slot = keySlot(seed, account);
  return crypto.createHash('sha256').update(`distinct-key:${seed}:${slot}`).digest();
}

const PKCS8_P256 = Buffer.from(
  '3041020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420',
  'hex',
);

export function privateKeyOf(seed: number, account: number): crypto.KeyObject {
  return crypto.createPrivateKey({
    key: Buffer.concat([PKCS8_P256, privateScalar(seed, account)]),
    format: 'der',
    type: 'pkcs8',
  });
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = (B58[Number(n % 58n)] ?? '') + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** The account's signing key as its DID document names it (did:key multibase, compressed P-256 point). */
export function publicMultikey(seed: number, account: number): string {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(privateScalar(seed, account));
  const point = ecdh.getPublicKey(null, 'compressed');
  return `z${base58(Buffer.concat([Buffer.from([0x80, 0x24]), point]))}`;
}

const S32 = '234567abcdefghijklmnopqrstuvwxyz';
/** A TID (record key / revision): 53 bits of microseconds and a 10-bit clock id, base32-sortable. */
export function tid(micros: number, clock: number): string {
  // 64 bits: 0, 53 bits of µs, 10 of clock; 13 chars of 5 bits from the top (doubles hold 53 bits exactly).
  const us = Math.floor(micros);
  let out = (S32[(clock >> 5) & 31] ?? '2') + (S32[clock & 31] ?? '2');
  for (let k = 2, div = 1; k < 13; k++, div *= 32) out = (S32[Math.floor(us / div) % 32] ?? '2') + out;
  return out;
}

/** The network time of frame i, in µs since the epoch (`start`: the first frame's, in ms). */
export const microsAt = (p: DistinctParams, start: number, i: number) =>
  start * 1000 + (i * 1_000_000) / p.networkRate;

/** Collections of an op, by share of the real network's creates (likes 62 %, follows 15 %, posts 12 %, …). */
const MIX: Array<[string, number]> = [
  ['app.bsky.feed.like', 0.62],
  ['app.bsky.graph.follow', 0.15],
  ['app.bsky.feed.post', 0.12],
  ['app.bsky.feed.repost', 0.09],
  ['app.bsky.graph.block', 0.005],
  ['app.bsky.actor.profile', 0.005],
  ['app.bsky.graph.listitem', 0.005],
  ['app.bsky.feed.threadgate', 0.005],
];

export type FrameShape =
  | { kind: 'identity' | 'account'; account: number }
  | {
      kind: 'commit';
      account: number;
      ops: Array<{ collection: string; action: 'create' | 'delete' | 'update' }>;
    };

/** What frame i is, unless the programme's plan puts a planted event there (distinct-planted.ts). */
export function shapeOf(p: DistinctParams, i: number): FrameShape {
  const account = accountOf(p, i);
  const u = unit(p.seed, i, 3);
  if (u < 0.0025) return { kind: 'identity', account };
  if (u < 0.004) return { kind: 'account', account };
  const v = unit(p.seed, i, 4);
  const n = v < 0.92 ? 1 : v < 0.98 ? 2 : 3 + (hash32(p.seed, i, 5) % 4);
  const ops: Array<{ collection: string; action: 'create' | 'delete' | 'update' }> = [];
  for (let k = 0; k < n; k++) {
    let w = unit(p.seed, i, 10 + k);
    let collection = MIX[0]?.[0] ?? '';
    for (const [name, share] of MIX) {
      collection = name;
      if ((w -= share) < 0) break;
    }
    const action =
      collection === 'app.bsky.actor.profile'
        ? 'update'
        : unit(p.seed, i, 30 + k) < 0.036
          ? 'delete'
          : 'create';
    ops.push({ collection, action });
  }
  return { kind: 'commit', account, ops };
}
