import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from './stream-events';
import { WAITING_LIMIT, WAITING_TTL_MS, WaitingRoom, type ReadPosition } from './stream-waiting-room';

type Vote = Extract<StreamEvent, { type: 'like' | 'repost' }>;

const T = Date.parse('2026-11-27T12:00:00.000Z');

const did = fc.oneof(
  fc.stringMatching(/^did:plc:[a-z2-7]{24}$/),
  fc.stringMatching(/^did:web:[a-z0-9.-]{1,30}$/),
  fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }),
);
const rkey = fc.oneof(fc.stringMatching(/^[a-z2-7]{13}$/), fc.string({ maxLength: 20, unit: 'grapheme' }));
/** A like's or repost's CID: absent, null, the text of a CID (some of 59 chars write stray bits: kept as text), any. */
const cid = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant('bafyreibwvybh5w4p6t7eqvpmbdhbidnvmozsoygqzfdyyyq2mdtatfxbvi'),
  fc.stringMatching(/^b[a-z2-7]{58}$/),
  fc.stringMatching(/^b[a-z2-7]{0,80}$/),
  fc.string({ maxLength: 70 }),
);
const time = fc.oneof(
  fc.date({ min: new Date(-1e15), max: new Date(1e15), noInvalidDate: true }),
  fc.date(), // an invalid Date too: its NaN comes back as NaN
);
const read = fc.option(
  fc.record({
    position: fc.oneof(
      fc.maxSafeInteger(),
      fc.double({ noNaN: true }).filter((d) => !Object.is(d, -0)),
      fc.constant(2 ** 40 + 1),
    ),
    time: fc.option(
      fc.oneof(
        fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()),
        fc.string({ maxLength: 30 }),
      ),
    ),
  }),
);

/** A like or repost of `postId` (by `subjectAuthor`, whose DID is in it as on Bluesky, or not). */
const vote = fc
  .record({
    type: fc.constantFrom('like' as const, 'repost' as const),
    author: did,
    subjectAuthor: did,
    rkey,
    postKey: rkey,
    collection: fc.constantFrom('app.bsky.feed.like', 'app.bsky.feed.repost', 'x'),
    shaped: fc.boolean(),
    createdAt: time,
    cid,
  })
  .map(({ type, author, subjectAuthor, rkey, postKey, collection, shaped, createdAt, cid }) => {
    const postId = shaped ? `at://${subjectAuthor}/app.bsky.feed.post/${postKey}` : postKey;
    const event: Vote = {
      type,
      id: shaped ? `at://${author}/${collection}/${rkey}` : `${author}${rkey}`,
      authorId: author,
      subject: { id: postId, authorId: shaped ? subjectAuthor : (postId.slice(1, 3) ?? '') },
      createdAt,
      ...(cid !== undefined ? { cid } : {}),
    };
    return event;
  });

describe('a like or repost waiting for its post comes out as it went in (issue 31)', () => {
  it('holds for any like or repost, with or without a CID, and where it was read', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(vote, read), { minLength: 1, maxLength: 6 }), (votes) => {
        let now = T;
        const room = new WaitingRoom(() => now);
        const byPost = new Map<string, Vote[]>();
        // Each event is read where the source last said it reads.
        let reading: ReadPosition = { position: 0, time: null };
        room.readingAt(reading.position, reading.time);
        let oldest: ReadPosition | null = null;
        votes.forEach(([event, at], n) => {
          if (at) room.readingAt(at.position, at.time);
          reading = at ?? reading;
          if (!oldest || reading.position < oldest.position) oldest = reading;
          room.wait(event.subject.id, event);
          byPost.set(event.subject.id, [...(byPost.get(event.subject.id) ?? []), event]);
          now += n;
        });
        expect(room.size).toBe(votes.length);
        expect(room.oldestWaiting()?.position).toBe((oldest as ReadPosition | null)?.position);
        for (const [postId, events] of byPost) expect(room.release(postId)).toStrictEqual(events);
        expect(room.size).toBe(0);
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * Each like again with a proof, which the room never packs (it keeps the event as it came): the same steps on both
 * rooms must give the same answers (the proof taken off again).
 */
const unpacked = (e: Vote): Vote => ({ ...e, proof: new Uint8Array(1) });
function withoutProof(e: StreamEvent): StreamEvent {
  const copy = { ...e };
  if ('proof' in copy) delete copy.proof;
  return copy;
}

type Step =
  | { kind: 'wait'; post: number; event: Vote; position: number }
  | { kind: 'release'; post: number }
  | { kind: 'confirm' }
  | { kind: 'rewind' }
  | { kind: 'tick'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      post: fc.nat(5),
      event: vote,
      position: fc.nat(100),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('release' as const), post: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('confirm' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.nat(WAITING_TTL_MS / 2) }) },
);

describe('a room of packed likes keeps its order, evictions, releases and rewinds as one of events as they came', () => {
  it('answers the same to any steps', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        let now = T;
        const packed = new WaitingRoom(() => now);
        const plain = new WaitingRoom(() => now);
        const postIds = [0, 1, 2, 3, 4, 5].map(
          (n) => `at://did:plc:${'p'.repeat(23)}${n}/app.bsky.feed.post/${n}`,
        );
        for (const s of steps) {
          if (s.kind === 'wait') {
            const postId = postIds[s.post] ?? '';
            const event: Vote = { ...s.event, subject: { id: postId, authorId: postId.slice(5, 37) } };
            for (const room of [packed, plain])
              room.readingAt(s.position, new Date(T + s.position).toISOString());
            packed.wait(postId, event);
            plain.wait(postId, unpacked(event));
          } else if (s.kind === 'release') {
            const postId = postIds[s.post] ?? '';
            expect(packed.release(postId)).toStrictEqual(plain.release(postId).map(withoutProof));
          } else if (s.kind === 'tick') now += s.ms;
          else for (const room of [packed, plain]) room[s.kind]();
          expect(packed.size).toBe(plain.size);
          expect(packed.oldestWaiting()).toEqual(plain.oldestWaiting());
        }
        for (const postId of postIds)
          expect(packed.release(postId)).toStrictEqual(plain.release(postId).map(withoutProof));
      }),
      { numRuns: 300 },
    );
  });
});

describe('a packed like released and waiting again leaves by the limit as one that began then', () => {
  // The queue tells a post's lists apart by their first entry; two packed likes of the same content must not be
  // taken for one (a like read again at the same time and place, or put back by a rewind).
  const postId = (n: number) =>
    `at://did:plc:${n.toString(32).padStart(24, 'z')}/app.bsky.feed.post/3mabc2222222`;
  const likeOf = (n: number): Vote => ({
    type: 'like',
    id: `at://did:plc:${'a'.repeat(24)}/app.bsky.feed.like/3mabd${n.toString(32).padStart(8, '2')}`,
    authorId: `did:plc:${'a'.repeat(24)}`,
    subject: { id: postId(n), authorId: `did:plc:${n.toString(32).padStart(24, 'z')}` },
    createdAt: new Date(T),
    cid: 'bafyreibwvybh5w4p6t7eqvpmbdhbidnvmozsoygqzfdyyyq2mdtatfxbvi',
  });
  const fill = (room: WaitingRoom) => {
    for (let n = 2; n <= WAITING_LIMIT; n++) room.wait(postId(n), likeOf(n));
  };

  it.each([
    ['released and waiting again', (room: WaitingRoom) => room.wait(postId(0), likeOf(0))],
    ['put back by a rewind', (room: WaitingRoom) => room.rewind()],
  ])('%s', (_, again) => {
    const room = new WaitingRoom(() => T);
    room.readingAt(7, null);
    room.wait(postId(0), likeOf(0));
    room.wait(postId(1), likeOf(1));
    expect(room.release(postId(0))).toStrictEqual([likeOf(0)]);
    again(room);
    // One over the limit: the oldest list leaves, the one of post 1 (post 0's began again after it).
    fill(room);
    expect(room.size).toBe(WAITING_LIMIT);
    expect(room.release(postId(1))).toStrictEqual([]);
    expect(room.release(postId(0))).toStrictEqual([likeOf(0)]);
  });
});
