// The blocks of a commit of the distinct-traffic stream (distinct-frames.ts builds the frame around them): the
// Merkle search tree path from the signed root to each op's key, the CAR archive they travel in, and the signature.
import crypto from 'node:crypto';
import { encode, toBytes } from '@atcute/cbor';
import { CidLinkWrapper } from '@atcute/cid';
import { cidBytes, fakeCid } from './distinct-records';
import { tid } from './distinct-traffic';

export type Op = { path: string; action: 'create' | 'delete' | 'update'; micros: number; record?: object };
export type Block = { cid: Uint8Array; bytes: Uint8Array };

const P256_N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const HALF_N = P256_N >> 1n;

/** ECDSA P-256 over sha-256, 64 bytes r‖s with s in the lower half (atproto refuses the other). */
export function sign(key: crypto.KeyObject, data: Uint8Array): Uint8Array {
  const sig = crypto.sign('sha256', data, { key, dsaEncoding: 'ieee-p1363' });
  const s = BigInt(`0x${sig.subarray(32).toString('hex')}`);
  if (s <= HALF_N) return sig;
  const low = Buffer.from((P256_N - s).toString(16).padStart(64, '0'), 'hex');
  return Buffer.concat([sig.subarray(0, 32), low]);
}

const COLLECTIONS = [
  'app.bsky.feed.like',
  'app.bsky.feed.post',
  'app.bsky.graph.follow',
  'app.bsky.feed.repost',
];
const HOUR_US = 3_600_000_000;

/**
 * The tree path to every op's key (all at the lowest level, as most keys are): at each level a node of 2–5
 * neighbours near the keys below it, a link down where an op's key falls and links to subtrees not carried beside.
 * A created key is an entry of the lowest node; a deleted one falls in a gap with nothing under it.
 */
export function treePath(
  random: () => number,
  ops: readonly OpWithCid[],
  levels: number,
  blocks: Block[],
): CidLinkWrapper {
  const build = (level: number, lo: string, hi: string, group: OpWithCid[]): CidLinkWrapper => {
    const keys = new Set<string>();
    const fillers = 2 + Math.floor(random() * 4);
    for (let tries = 0; keys.size < fillers && tries < fillers * 4; tries++) {
      const near = group[Math.floor(random() * group.length)] ?? group[0];
      if (!near) break;
      const collection =
        level === levels - 1 && random() < 0.5
          ? (COLLECTIONS[Math.floor(random() * 4)] ?? '')
          : near.path.split('/')[0];
      const span = HOUR_US * 4 ** level;
      const key = `${collection}/${tid(near.micros + (random() * 2 - 1) * span, Math.floor(random() * 1024))}`;
      if (key > lo && key < hi && !group.some((o) => o.path === key)) keys.add(key);
    }
    const entries: Array<{ key: string; v: CidLinkWrapper; t: CidLinkWrapper | null }> = [...keys].map(
      (key) => ({
        key,
        v: fakeCid(random),
        t: level > 0 && random() < 0.6 ? fakeCid(random) : null,
      }),
    );
    if (level === 0) {
      for (const op of group)
        if (op.action !== 'delete') entries.push({ key: op.path, v: op.cid ?? fakeCid(random), t: null });
    }
    entries.sort((a, b) => (a.key < b.key ? -1 : 1));
    let left: CidLinkWrapper | null = level > 0 && random() < 0.6 ? fakeCid(random) : null;
    if (level > 0) {
      // The ops below each gap between entries go down one level together.
      let from = 0;
      for (let gap = 0; gap <= entries.length; gap++) {
        const upper = entries[gap]?.key ?? hi;
        const lower = gap === 0 ? lo : (entries[gap - 1]?.key ?? lo);
        const below: OpWithCid[] = [];
        while (from < group.length && (group[from]?.path ?? '') < upper)
          below.push(group[from++] as OpWithCid);
        if (below.length === 0) continue;
        const child = build(level - 1, lower, upper, below);
        if (gap === 0) left = child;
        else (entries[gap - 1] as { t: CidLinkWrapper | null }).t = child;
      }
    }
    let previous = '';
    const e = entries.map((entry) => {
      let p = 0;
      while (p < previous.length && p < entry.key.length && previous[p] === entry.key[p]) p++;
      previous = entry.key;
      return { k: toBytes(Buffer.from(entry.key.slice(p), 'latin1')), p, t: entry.t, v: entry.v };
    });
    const bytes = encode({ e, l: left });
    const cid = cidBytes(bytes);
    blocks.push({ cid, bytes });
    return new CidLinkWrapper(cid);
  };
  const sorted = [...ops].sort((a, b) => (a.path < b.path ? -1 : 1));
  return build(levels - 1, '', '~', sorted);
}

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
}

/** A CAR v1 archive of the blocks, rooted at the first. */
export function car(blocks: readonly Block[]): Uint8Array {
  const header = encode({ roots: [new CidLinkWrapper(blocks[0]?.cid ?? new Uint8Array())], version: 1 });
  const parts: Uint8Array[] = [];
  const lengths: number[] = [];
  varint(header.length, lengths);
  parts.push(Uint8Array.from(lengths), header);
  for (const b of blocks) {
    const prefix: number[] = [];
    varint(b.cid.length + b.bytes.length, prefix);
    parts.push(Uint8Array.from(prefix), b.cid, b.bytes);
  }
  return Buffer.concat(parts);
}

export type OpWithCid = Op & { cid?: CidLinkWrapper };
