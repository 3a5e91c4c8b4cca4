import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { toBytes } from '@atcute/cbor';
import { describe, expect, it } from 'vitest';
import { StreamInterest } from '../../social/stream-interest';
import type { PostEvent } from '../../social/stream-source';
import { createFrameReader, type FrameResult } from './bluesky-frames';
import { block, commitFrame, frame, like, post, rawBlock } from './bluesky-frames.test-support';

const ANN = 'did:plc:ann';
const BOB = 'did:plc:bob';
const HQ = 'did:plc:hq';
const TRACKED = `at://${ANN}/app.bsky.feed.post/tracked`;

function interest(): StreamInterest {
  const i = new StreamInterest();
  i.load({
    tracked: [TRACKED],
    people: [ANN],
    officials: [HQ],
    names: (p: PostEvent) => p.text.includes('#ManaBoard'),
  });
  return i;
}

async function read(bytes: Uint8Array, into = interest(), maxFrameBytes?: number): Promise<FrameResult> {
  return createFrameReader(maxFrameBytes ? { maxFrameBytes } : {}).read(bytes, into);
}

const kept = (r: FrameResult) => (r.kind === 'events' ? r.events.map((e) => [e.type, e.authorId]) : r);

describe('the Bluesky frame reader: filter before decode', () => {
  it('keeps what concerns the programme and drops the rest before the database', async () => {
    const i = interest();
    // A like of a tracked post and one of an unknown post, in one commit of Bob's.
    const r = await read(
      await commitFrame(7, BOB, [
        { action: 'create', path: 'app.bsky.feed.like/a', block: await like(TRACKED) },
        {
          action: 'create',
          path: 'app.bsky.feed.like/b',
          block: await like(`at://${BOB}/app.bsky.feed.post/x`),
        },
      ]),
      i,
    );
    expect(r).toMatchObject({ kind: 'events', seq: 7, time: '2026-01-01T00:00:07.000Z', malformed: [] });
    expect(kept(r)).toEqual([['like', BOB]]);
    // The other like waits for its post: a post naming the programme brings it along.
    const later = await read(
      await commitFrame(8, BOB, [
        { action: 'create', path: 'app.bsky.feed.post/x', block: await post('off #ManaBoard') },
      ]),
      i,
    );
    expect(kept(later)).toEqual([
      ['post', BOB],
      ['like', BOB],
    ]);
    // Deletions are judged by their account alone: Ann is known, Carol is nobody.
    const del = async (did: string) =>
      kept(await read(await commitFrame(9, did, [{ action: 'delete', path: 'app.bsky.feed.like/z' }]), i));
    expect(await del(ANN)).toEqual([['delete', ANN]]);
    expect(await del('did:plc:carol')).toEqual([]);
  });

  it('never decodes the blocks of other collections or the tree nodes', async () => {
    // Not CBOR at all: decoding any of them would fail and be reported.
    const garbage = await rawBlock(new Uint8Array([0xff, 0xfe, 0xfd]));
    const r = await read(
      await commitFrame(
        3,
        BOB,
        [
          { action: 'create', path: 'app.bsky.graph.follow/f', block: garbage },
          { action: 'create', path: 'app.bsky.feed.like/a', block: await like(TRACKED) },
        ],
        [await rawBlock(new Uint8Array([0xff, 0x00]))],
      ),
    );
    expect(r).toMatchObject({ kind: 'events', seq: 3, malformed: [] });
    expect(kept(r)).toEqual([['like', BOB]]);
  });
});

describe('the Bluesky frame reader: bad input is skipped, never thrown', () => {
  it('a malformed frame: skipped with no cursor (nothing in it can be trusted)', async () => {
    expect(await read(new Uint8Array([0x1f, 0xff, 0x00, 0x12]))).toMatchObject({
      kind: 'skip',
      reason: 'malformed-frame',
      seq: null,
    });
    // A header and a body that is no map.
    expect(await read(frame({ op: 1, t: '#commit' }, [1, 2]))).toMatchObject({
      kind: 'skip',
      reason: 'malformed-frame',
    });
    // A commit whose blocks are no CAR archive: skipped at its sequence number.
    const body = {
      seq: 5,
      repo: BOB,
      ops: [],
      blocks: toBytes(new TextEncoder().encode('not a car')),
      time: 't',
    };
    expect(await read(frame({ op: 1, t: '#commit' }, body))).toMatchObject({
      kind: 'skip',
      reason: 'malformed-frame',
      seq: 5,
    });
  });

  it('an oversized frame: skipped at its sequence number, its blocks unread', async () => {
    const big = await commitFrame(11, BOB, [
      {
        action: 'create',
        path: 'app.bsky.feed.post/p',
        block: await post(`#ManaBoard ${'x'.repeat(5_000)}`),
      },
    ]);
    expect(await read(big, interest(), 1_000)).toMatchObject({
      kind: 'skip',
      reason: 'oversized-frame',
      seq: 11,
    });
    expect(kept(await read(big, interest(), 10_000))).toEqual([['post', BOB]]);
  });

  it('an unknown frame type: skipped at its sequence number; account and sync events move the cursor only', async () => {
    expect(await read(frame({ op: 1, t: '#weird' }, { seq: 12 }))).toMatchObject({
      kind: 'skip',
      reason: 'unknown-frame',
      seq: 12,
    });
    expect(await read(frame({ op: 1, t: '#account' }, { seq: 13, did: ANN, active: false }))).toMatchObject({
      kind: 'events',
      seq: 13,
      events: [],
    });
  });

  it('an unknown op, or a record failing its schema, is left out; the rest of the commit still counts', async () => {
    const r = await read(
      await commitFrame(14, BOB, [
        { action: 'frobnicate', path: 'app.bsky.feed.like/a', block: await like(TRACKED) },
        { action: 'create', path: 'app.bsky.feed.post/p', block: await block({ createdAt: 'never' }) },
        { action: 'create', path: 'app.bsky.feed.like/b', block: await block({ subject: 'nothing' }) },
        { action: 'create', path: 'app.bsky.feed.like/c', block: await like(TRACKED) },
      ]),
    );
    expect(kept(r)).toEqual([['like', BOB]]);
    const malformed = r.kind === 'events' ? r.malformed : [];
    expect(malformed).toHaveLength(3);
    expect(malformed[0]).toMatch(/unknown action frobnicate/);
  });

  it("the relay's error frame ends the connection; identity events pass only for known accounts", async () => {
    expect(await read(frame({ op: -1 }, { error: 'FutureCursor', message: 'too far' }))).toEqual({
      kind: 'error',
      name: 'FutureCursor',
      message: 'too far',
    });
    const identity = (did: string) => frame({ op: 1, t: '#identity' }, { seq: 20, did, time: 't' });
    expect(kept(await read(identity(ANN)))).toEqual([['identity', ANN]]);
    expect(kept(await read(identity(BOB)))).toEqual([]);
  });
});

describe('the Bluesky frame reader: what a like waiting for its post holds', () => {
  it('under 300 bytes of heap a like, so a full waiting room stays near WAITING_LIMIT × 0.25 KB (issue 31)', async () => {
    // V8's gc, installed in a context made after the flag is set (lib/heap-budget.test.ts).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const into = interest();
    const reader = createFrameReader();
    // Distinct accounts liking distinct posts the programme has not seen: each like waits, as on the network.
    const readLikes = async (from: number, to: number) => {
      for (let n = from; n < to; n++) {
        const did = `did:plc:${n.toString(32).padStart(24, 'a')}`;
        const subject = `at://did:plc:${n.toString(32).padStart(24, 'b')}/app.bsky.feed.post/3mabc${n.toString(32).padStart(8, '2')}`;
        const rkey = `3mabd${n.toString(32).padStart(8, '2')}`;
        const bytes = await commitFrame(n + 1, did, [
          { action: 'create', path: `app.bsky.feed.like/${rkey}`, block: await like(subject) },
        ]);
        // A copy per frame, as the socket gives it, so the test's frame builder shares nothing with it.
        reader.read(bytes.slice(), into);
      }
    };
    // The reader's and the interest's code compiled and their tables grown before the measure.
    await readLikes(0, 2_000);
    gc();
    const before = process.memoryUsage().heapUsed;
    await readLikes(2_000, 6_000);
    gc();
    const perLike = (process.memoryUsage().heapUsed - before) / 4_000;
    expect(into.size.waiting).toBe(6_000);
    // ~215 bytes: the like packed into one string (stream-waiting-vote.ts, ~120), the post's key (~48: the id
    // packed, stream-waiting-keys.ts), the Map's entry and the queue's two slots. Before, ~1.2 KB (the like's id and
    // its CID's text kept as trees of their pieces), then ~630 (an object with its own strings, two heap numbers, a
    // read position, a one-entry array and the post id as it came).
    expect(perLike).toBeLessThan(300);
  });
});
