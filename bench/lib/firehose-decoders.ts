// Ways to read a recorded subscribeRepos frame, compared on the same frames by bench/stream-decoders.ts. Each takes
// every frame and returns how many records of the programme's collections (post, like, repost creates and updates)
// it decoded, so the bench can check that they all read the same stream.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromBytes, decode as atcuteDecode, decodeFirst as atcuteDecodeFirst } from '@atcute/cbor';
import type { Bytes } from '@atcute/cbor';
import { fromUint8Array as readAtcuteCar } from '@atcute/car';
import type { CidLink } from '@atcute/cid';
import { CarBufferReader } from '@ipld/car/buffer-reader';
import * as dagCbor from '@ipld/dag-cbor';
import { decodeFirst as cborgDecodeFirst } from 'cborg';
import { parseAccount, parseCommitUnauthenticated } from '@atproto/sync';
import { ensureChunkIsMessage } from '@atproto/xrpc-server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

type CID = Parameters<CarBufferReader['get']>[0];

export type Decoder = { name: string; read: (frames: Uint8Array[]) => number | Promise<number> };

/** The collections the programme reads: their records are decoded, every other op is skipped unread. */
export const PROGRAMME_COLLECTIONS = new Set([
  'app.bsky.feed.post',
  'app.bsky.feed.like',
  'app.bsky.feed.repost',
]);
const wanted = (opPath: string) => PROGRAMME_COLLECTIONS.has(opPath.slice(0, opPath.indexOf('/')));

/** Only reads the frames (their first byte and length): the floor under any decoder. */
export const bareLoop: Decoder = {
  name: 'bare loop (reads each frame, decodes nothing)',
  read: (frames) => {
    let sum = 0;
    for (const frame of frames) sum += (frame[0] ?? 0) + frame.length;
    return sum > 0 ? 0 : -1;
  },
};

type SubscribeReposLexicons = {
  com: {
    atproto: {
      sync: {
        subscribeRepos: {
          $message: { safeParse: (value: unknown) => { success: boolean; value?: unknown } };
          commit: { $isTypeOf: (value: unknown) => boolean };
          account: { $isTypeOf: (value: unknown) => boolean };
        };
      };
    };
  };
};

/**
 * @atproto/sync's own path, step by step as its Firehose runs it on each WebSocket message (0.4.11): the frame
 * decoded by @atproto/xrpc-server (`ensureChunkIsMessage`, @atproto/lex-cbor), the message validated against the
 * subscribeRepos lexicon (the Firehose's `validate`; the lexicon module is not exported, so it is loaded from the
 * installed package's own file), then `parseCommitUnauthenticated` (the CAR read with every block's CID checked,
 * then the records of the filtered collections decoded) or `parseAccount`. Identity events are excluded, as the
 * worker's consumer excludes them (resolving a DID is a network call).
 */
export async function atprotoSyncDecoder(): Promise<Decoder> {
  const file = path.join(repoRoot, 'node_modules/@atproto/sync/dist/lexicons/index.js');
  const { com } = (await import(pathToFileURL(file).href)) as SubscribeReposLexicons;
  const messages = com.atproto.sync.subscribeRepos;
  const nsid = 'com.atproto.sync.subscribeRepos';
  const match = (collection: string) => PROGRAMME_COLLECTIONS.has(collection);
  return {
    name: '@atproto/sync (xrpc-server frame + lexicon validation + parseCommitUnauthenticated)',
    read: async (frames) => {
      let records = 0;
      for (const frame of frames) {
        const message = ensureChunkIsMessage(frame);
        const t = message.header.t;
        const body = message.body as Record<string, unknown>;
        const typed = { ...body, $type: t?.startsWith('#') ? nsid + t : t };
        const result = messages.$message.safeParse(typed);
        if (!result.success) continue;
        const evt = result.value;
        if (messages.commit.$isTypeOf(evt)) {
          const events = await parseCommitUnauthenticated(
            evt as Parameters<typeof parseCommitUnauthenticated>[0],
            match,
          );
          for (const e of events) if (e.event !== 'delete') records++;
        } else if (messages.account.$isTypeOf(evt)) {
          parseAccount(evt as Parameters<typeof parseAccount>[0]);
        }
      }
      return records;
    },
  };
}

type Op = { action: string; path: string; cid: (CidLink & { bytes: Uint8Array }) | null };

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  // CIDs differ in their last bytes (the digest); their first four (version, codec, hash, length) are alike.
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * @atcute/cbor + @atcute/car + @atcute/cid: the header, then the body; a commit's ops are read first and the CAR is
 * opened only when an op is of a programme collection, and then only those ops' record blocks are decoded (never
 * the commit block or the tree nodes). `everyBlock` decodes every block instead (what a naive consumer does).
 */
export function atcuteDecoder(options: { frameOnly?: boolean; everyBlock?: boolean } = {}): Decoder {
  const name = options.frameOnly
    ? '@atcute/cbor, header + body only (no CAR, no record)'
    : options.everyBlock
      ? '@atcute/cbor + @atcute/car, every block decoded'
      : '@atcute/cbor + @atcute/car, only the programme ops’ record blocks';
  return {
    name,
    read: (frames) => {
      let records = 0;
      for (const frame of frames) {
        const [header, rest] = atcuteDecodeFirst(frame) as [{ op: number; t?: string }, Uint8Array];
        if (header.op !== 1) continue;
        const body = atcuteDecode(rest) as { ops?: Op[]; blocks?: Bytes };
        if (options.frameOnly || header.t !== '#commit' || !body.ops || !body.blocks) continue;
        const ops = body.ops.filter((op) => op.cid && op.action !== 'delete' && wanted(op.path));
        if (!ops.length && !options.everyBlock) continue;
        for (const entry of readAtcuteCar(fromBytes(body.blocks))) {
          if (options.everyBlock) {
            atcuteDecode(entry.bytes);
            if (ops.some((op) => op.cid && sameBytes(op.cid.bytes, entry.cid.bytes))) records++;
            continue;
          }
          for (const op of ops) {
            if (op.cid && sameBytes(op.cid.bytes, entry.cid.bytes)) {
              atcuteDecode(entry.bytes);
              records++;
            }
          }
        }
      }
      return records;
    },
  };
}

/**
 * @ipld/dag-cbor (on cborg) + @ipld/car, the IPFS project's codecs: same filter-first path as the @atcute one
 * (the header with cborg's decodeFirst and dag-cbor's decode options, the body, then the wanted record blocks).
 */
export const ipldDecoder: Decoder = {
  name: '@ipld/dag-cbor + @ipld/car, only the programme ops’ record blocks',
  read: (frames) => {
    let records = 0;
    for (const frame of frames) {
      // dag-cbor's options are cborg 6's; the root cborg is 4 (the one @atproto/lex-cbor uses), whose option
      // shape differs only in its type (tags by index, the same at run time).
      const options = dagCbor.decodeOptions as unknown as Parameters<typeof cborgDecodeFirst>[1];
      const [header, rest] = cborgDecodeFirst(frame, options) as [{ op: number; t?: string }, Uint8Array];
      if (header.op !== 1 || header.t !== '#commit') continue;
      const body = dagCbor.decode(rest) as {
        ops: Array<{ action: string; path: string; cid: CID | null }>;
        blocks: Uint8Array;
      };
      const ops = body.ops.filter((op) => op.cid && op.action !== 'delete' && wanted(op.path));
      if (!ops.length) continue;
      const car = CarBufferReader.fromBytes(body.blocks);
      for (const op of ops) {
        const block = op.cid ? car.get(op.cid) : undefined;
        if (block) {
          dagCbor.decode(block.bytes);
          records++;
        }
      }
    }
    return records;
  },
};
