import { encode, toBytes } from '@atcute/cbor';
import { writeCarStream } from '@atcute/car';
import * as CID from '@atcute/cid';

/** A block of a commit: its CBOR bytes and CID. */
export type Block = { cid: CID.Cid; bytes: Uint8Array };

export async function block(value: unknown): Promise<Block> {
  const bytes = encode(value);
  return { cid: await CID.create(0x71, bytes), bytes };
}

/** Raw bytes as a block (e.g. bytes that are no CBOR at all), under their true CID. */
export async function rawBlock(bytes: Uint8Array): Promise<Block> {
  return { cid: await CID.create(0x71, bytes), bytes };
}

export async function car(blocks: readonly Block[]): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  const roots = blocks[0] ? [CID.toCidLink(blocks[0].cid)] : [];
  for await (const chunk of writeCarStream(
    roots,
    blocks.map((b) => ({ cid: b.cid.bytes, data: b.bytes })),
  ))
    chunks.push(chunk);
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** A subscribeRepos frame: the header and body, two CBOR values back to back. */
export function frame(header: object, body: object): Uint8Array {
  const h = encode(header);
  const b = encode(body);
  const out = new Uint8Array(h.length + b.length);
  out.set(h);
  out.set(b, h.length);
  return out;
}

export type Op = { action: string; path: string; block?: Block };

/**
 * A #commit frame of `repo` with these ops; `blocks` (default: the ops' blocks) go into its CAR. Its time is
 * 2026-01-01 plus `seq` seconds unless `time` says otherwise.
 */
export async function commitFrame(
  seq: number,
  repo: string,
  ops: readonly Op[],
  extraBlocks: readonly Block[] = [],
  time = new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
): Promise<Uint8Array> {
  const blocks = [...ops.flatMap((o) => (o.block ? [o.block] : [])), ...extraBlocks];
  return frame(
    { op: 1, t: '#commit' },
    {
      seq,
      repo,
      rebase: false,
      tooBig: false,
      commit: CID.toCidLink((blocks[0] ?? (await block({}))).cid),
      rev: '3kabc',
      since: null,
      blocks: toBytes(await car(blocks)),
      ops: ops.map((o) => ({
        action: o.action,
        path: o.path,
        cid: o.block ? CID.toCidLink(o.block.cid) : null,
      })),
      blobs: [],
      time,
    },
  );
}

export const post = (text: string, extra: object = {}) =>
  block({ $type: 'app.bsky.feed.post', text, createdAt: '2026-01-01T00:00:00.000Z', ...extra });

export const like = (subjectUri: string, createdAt = '2026-01-01T00:00:00.000Z') =>
  block({
    $type: 'app.bsky.feed.like',
    subject: { uri: subjectUri, cid: 'bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm' },
    createdAt,
  });
