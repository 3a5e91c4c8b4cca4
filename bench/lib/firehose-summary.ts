// What a recorded range of frames holds: event kinds, blocks and ops per commit, and how many events concern a
// tracked post (computed from the frames themselves, not from what the generator meant to write).
import { decode, decodeFirst, fromBytes } from '@atcute/cbor';
import type { Bytes } from '@atcute/cbor';
import { fromUint8Array as readCar } from '@atcute/car';
import type { RecordingMeta } from './firehose-recording';
import { PROGRAMME_TAG } from './firehose-records';

export type RangeSummary = {
  frames: number;
  bytes: number;
  kinds: Record<string, number>;
  commits: number;
  blocksPerCommit: number;
  opsPerCommit: number;
  multiOpCommits: number;
  deletes: number;
  /** Events about a tracked post: a post naming the programme or its official account, a reply to, like or
   * repost of a tracked post. */
  concerning: number;
};

type Op = { action: string; path: string; cid: { bytes: Uint8Array } | null };
type Body = { repo?: string; ops?: Op[]; blocks?: Bytes };
type PostLike = { text?: string; subject?: { uri?: string }; reply?: { parent?: { uri?: string } } };

function concerns(record: PostLike, collection: string, tracked: Set<string>, official: string): boolean {
  if (collection === 'app.bsky.feed.post') {
    if (record.text?.includes(`#${PROGRAMME_TAG}`) || record.text?.includes(`@${official}`)) return true;
    return tracked.has(record.reply?.parent?.uri ?? '');
  }
  return tracked.has(record.subject?.uri ?? '');
}

export function summarise(frames: Uint8Array[], meta: RecordingMeta): RangeSummary {
  const tracked = new Set(meta.trackedPosts);
  const summary: RangeSummary = {
    frames: frames.length,
    bytes: 0,
    kinds: {},
    commits: 0,
    blocksPerCommit: 0,
    opsPerCommit: 0,
    multiOpCommits: 0,
    deletes: 0,
    concerning: 0,
  };
  let blocks = 0;
  let ops = 0;
  for (const frame of frames) {
    summary.bytes += frame.length;
    const [header, rest] = decodeFirst(frame) as [{ t?: string }, Uint8Array];
    const kind = header.t ?? '?';
    summary.kinds[kind] = (summary.kinds[kind] ?? 0) + 1;
    if (kind !== '#commit') continue;
    const body = decode(rest) as Body;
    if (!body.blocks) continue;
    summary.commits++;
    ops += body.ops?.length ?? 0;
    if ((body.ops?.length ?? 0) > 1) summary.multiOpCommits++;
    summary.deletes += body.ops?.filter((op) => op.action === 'delete').length ?? 0;
    let about = false;
    for (const entry of readCar(fromBytes(body.blocks))) {
      blocks++;
      const op = body.ops?.find(
        (o) =>
          o.cid &&
          o.cid.bytes.length === entry.cid.bytes.length &&
          o.cid.bytes.every((b, i) => b === entry.cid.bytes[i]),
      );
      if (!op) continue;
      const collection = op.path.slice(0, op.path.indexOf('/'));
      if (concerns(decode(entry.bytes) as PostLike, collection, tracked, meta.official.handle)) about = true;
    }
    if (about) summary.concerning++;
  }
  summary.blocksPerCommit = summary.commits ? blocks / summary.commits : 0;
  summary.opsPerCommit = summary.commits ? ops / summary.commits : 0;
  return summary;
}
