import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { StreamInterest, WAITING_LIMIT, WAITING_TTL_MS } from './stream-interest';
import type { StreamEvent } from './stream-events';

const T = Date.parse('2026-11-27T12:00:00.000Z');
const AUTHOR = 'did:example:author';

/** Post ids of this test say when the post was made: `post:<ms>`. */
const madeAt = (id: string) => (id.startsWith('post:') ? Number(id.slice(5)) : undefined);

function like(subject: string, at: number, n = 0): StreamEvent {
  return {
    type: 'like',
    id: `like:${n}`,
    authorId: `did:example:liker${n}`,
    subject: { id: subject, authorId: AUTHOR },
    createdAt: new Date(at),
  };
}

function post(id: string, at: number, tagged: boolean): StreamEvent {
  return {
    type: 'post',
    id,
    authorId: AUTHOR,
    text: tagged ? '#ManaBoard' : 'hi',
    tags: [],
    mentions: [],
    createdAt: new Date(at),
    replyTo: null,
    quotes: null,
  };
}

/** An event's id (identity events have none). */
const idOf = (e: StreamEvent) => ('id' in e ? e.id : e.authorId);

function interest(now = () => T) {
  const i = new StreamInterest(now, madeAt);
  i.load({ tracked: [], people: [], officials: [], names: (p) => p.text.includes('#ManaBoard') });
  return i;
}

describe('the stream interest', () => {
  it('judges at once a like of a post made long before it, and still waits for a young post', () => {
    const i = interest();
    const old = `post:${T - WAITING_TTL_MS - 1}`;
    expect(i.keep(like(old, T))).toEqual([]);
    expect(i.size.waiting).toBe(0);
    const young = `post:${T - 1_000}`;
    expect(i.keep(like(young, T))).toEqual([]);
    expect(i.size.waiting).toBe(1);
    // A like that came before its post counts when the post arrives.
    expect(i.keep(post(young, T - 1_000, true)).map(idOf)).toEqual([young, 'like:0']);
    expect(i.size.waiting).toBe(0);
  });

  it('waits as before when the network says nothing of when a post was made', () => {
    const i = interest();
    expect(i.keep(like('somepost', T))).toEqual([]);
    expect(i.size.waiting).toBe(1);
    expect(i.keep(post('somepost', T, true)).map(idOf)).toEqual(['somepost', 'like:0']);
  });

  it('drops the oldest waiting first, past the limit and past the age, and skips posts already released', () => {
    let now = T;
    const i = interest(() => now);
    i.keep(like('first', T, 1));
    i.keep(like('second', T, 2));
    i.keep(post('first', T, false)); // not tracked: 'first' keeps waiting
    for (let n = 0; n < WAITING_LIMIT - 1; n++) i.keep(like(`p${n}`, T, 3));
    // One over the limit: the oldest ('first') leaves; 'second' still waits.
    expect(i.size.waiting).toBe(WAITING_LIMIT);
    expect(i.keep(post('first', T, true)).map(idOf)).toEqual(['first']);
    expect(i.keep(post('second', T, true)).map(idOf)).toEqual(['second', 'like:2']);
    // 'second' was released: passing over its queue entry drops nothing else.
    expect(i.size.waiting).toBe(WAITING_LIMIT - 1);
    now = T + WAITING_TTL_MS;
    i.keep(like('late', now, 4));
    expect(i.size.waiting).toBe(1);
    expect(i.keep(post('late', now, true)).map(idOf)).toEqual(['late', 'like:4']);
  });

  it('holds no like it evicted: a full room keeps WAITING_LIMIT events in memory, not more (issue 31)', async () => {
    // V8's gc, installed in a context made after the flag is set (lib/heap-budget.test.ts).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const i = interest();
    // A distinct young post for each like, as on the network: each like begins a list of its own in the queue.
    const evicted: Array<WeakRef<StreamEvent>> = [];
    for (let n = 0; n < WAITING_LIMIT + 1_000; n++) {
      const event = like(`post:${T - 1_000}:${n}`, T, n);
      if (n < 1_000) evicted.push(new WeakRef(event));
      i.keep(event);
    }
    expect(i.size.waiting).toBe(WAITING_LIMIT);
    // A WeakRef holds its target until the turn it was made in ends.
    await nextTurn();
    gc();
    // Before, the queue's arrays held the evicted lists until they were cut down (the head past 4,096 entries and
    // half of them): up to WAITING_LIMIT events more, some 1 KB each on Bluesky.
    expect(evicted.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  });

  it('releases each like and repost as it came, though it waited flat (issue 31)', () => {
    const i = interest();
    const young = `post:${T - 1_000}`;
    const events: StreamEvent[] = [
      Object.assign(like(young, T - 10, 1), { cid: 'bafyreia' }),
      Object.assign(like(young, T - 20, 2), { cid: null }),
      like(young, T - 30, 3),
      {
        type: 'repost',
        id: 'repost:4',
        authorId: 'did:example:r',
        subject: { id: young, authorId: AUTHOR },
        createdAt: new Date(T - 40),
        cid: 'bafyreib',
      },
    ];
    for (const e of events) i.keep(e);
    expect(i.size.waiting).toBe(4);
    const [, ...released] = i.keep(post(young, T - 1_000, true));
    expect(released).toStrictEqual(events);
    // A lost batch puts them back: they come again the same.
    i.rewind();
    const [, ...again] = i.keep(post(young, T - 1_000, true));
    expect(again).toStrictEqual(events);
  });

  it('puts the likes a post released back to wait when the batch they were in is lost, and forgets them once stored', () => {
    // Issue 32: the relay dropped the connection before the post's batch was stored; the source reads again from
    // the stored cursor, past the like, so only the post comes again.
    const i = interest();
    const young = `post:${T - 1_000}`;
    i.keep(like(young, T, 1));
    expect(i.keep(post(young, T - 1_000, true)).map(idOf)).toEqual([young, 'like:1']);
    i.rewind();
    expect(i.size.waiting).toBe(1);
    expect(i.keep(post(young, T - 1_000, true)).map(idOf)).toEqual([young, 'like:1']);
    // Stored this time: nothing goes back.
    i.confirm();
    i.rewind();
    expect(i.size.waiting).toBe(0);
    expect(i.keep(post(young, T - 1_000, true)).map(idOf)).toEqual([young]);
  });

  it('a reader that reads ahead confirms the releases of the batches stored, and the later ones still go back', () => {
    // The stream's worker thread: batch 1 released one like and was stored; batch 2, read ahead, released another
    // and was lost with the connection.
    const i = interest();
    const [a, b] = [`post:${T - 2_000}`, `post:${T - 1_000}`];
    i.keep(like(a, T, 1));
    i.keep(like(b, T, 2));
    expect(i.keep(post(a, T - 2_000, true)).map(idOf)).toEqual([a, 'like:1']);
    const endOfBatch1 = i.releasedMark();
    expect(i.keep(post(b, T - 1_000, true)).map(idOf)).toEqual([b, 'like:2']);
    expect(i.releasedMark()).toBe(2);
    i.confirmThrough(endOfBatch1);
    i.rewind();
    expect(i.size.waiting).toBe(1);
    expect(i.keep(post(b, T - 1_000, true)).map(idOf)).toEqual([b, 'like:2']);
    expect(i.keep(post(a, T - 2_000, true)).map(idOf)).toEqual([a]);
  });

  it('tells where the oldest like still waiting was read, also after a rewind and a read again from an older position', () => {
    // Issue 32 (a SIGKILL): the engine stores this beside its cursor, so a new process can refill the waiting room.
    const i = interest();
    const at = (seq: number) => new Date(T + seq * 1_000).toISOString();
    const [a, b, c] = [`post:${T - 3_000}`, `post:${T - 2_000}`, `post:${T - 1_000}`];
    expect(i.oldestWaiting()).toBeNull();
    i.readingAt(10, at(10));
    i.keep(like(a, T, 1));
    i.readingAt(11, at(11));
    i.keep(like(b, T, 2));
    expect(i.oldestWaiting()).toEqual({ position: 10, time: at(10) });
    // a's post releases its like: b's is the oldest waiting; a lost batch puts a's back (read at 10).
    i.readingAt(12, at(12));
    i.keep(post(a, T - 3_000, true));
    expect(i.oldestWaiting()?.position).toBe(11);
    i.rewind();
    expect(i.oldestWaiting()?.position).toBe(10);
    i.keep(post(a, T - 3_000, true));
    i.confirm();
    // The source reads again from an older cursor (a lost read-ahead): a like read at 9 waits after b's in the queue.
    i.readingAt(9, at(9));
    i.keep(like(c, T, 3));
    expect(i.oldestWaiting()?.position).toBe(9);
    i.readingAt(13, at(13));
    i.keep(post(c, T - 1_000, true));
    expect(i.oldestWaiting()?.position).toBe(11);
    expect(i.readThrough).toBe(13);
  });

  it('a refill dates back what begins to wait, keeps nothing it released for a rewind, and ends after its last position', () => {
    let now = T + 60 * 60_000;
    const i = interest(() => now);
    const at = (minutes: number) => new Date(T + minutes * 60_000).toISOString();
    const [old, kept, released] = [`post:${T}`, `post:${T + 1}`, `post:${T + 2}`];
    // Read again through position 30, read 20 minutes after position 10 and 10 minutes after position 20.
    i.refill({ position: 30, time: at(20) });
    expect(i.refilling).toBe(true);
    i.readingAt(10, at(0));
    i.keep(like(old, T, 1)); // read 20 minutes before the cursor: it would have left the waiting room already
    i.readingAt(20, at(10));
    i.keep(like(kept, T, 2));
    i.keep(like(released, T, 3));
    expect(i.size.waiting).toBe(2);
    i.readingAt(25, at(12));
    // Its post came before the cursor too: both were stored then; the source drops what is passed now.
    expect(i.keep(post(released, T, true)).map(idOf)).toEqual([released, 'like:3']);
    i.readingAt(31, at(21));
    expect(i.refilling).toBe(false);
    i.rewind();
    expect(i.size.waiting).toBe(1);
    expect(i.oldestWaiting()).toEqual({ position: 20, time: at(10) });
    // Dated back 10 minutes: 5 minutes on it leaves (WAITING_TTL_MS is 15).
    now += WAITING_TTL_MS - 10 * 60_000;
    i.readingAt(32, at(26));
    i.keep(like(`post:${now}`, now, 4));
    expect(i.size.waiting).toBe(1);
    expect(i.oldestWaiting()?.position).toBe(32);
  });

  it('the oldest waiting is not hidden by a post that waited, was released and waits again in the same millisecond', () => {
    // In a backlog many frames are read in one millisecond: the queue's entry of a released list must not pass for
    // the list that began after it.
    const i = interest();
    const [x, y] = [`post:${T - 2_000}`, `post:${T - 1_000}`];
    i.readingAt(10, null);
    i.keep(like(x, T, 1));
    i.readingAt(11, null);
    i.keep(like(y, T, 2));
    i.readingAt(12, null);
    expect(i.keep(post(x, T - 2_000, true)).map(idOf)).toEqual([x, 'like:1']);
    i.confirm();
    // The engine did not track x after all (the interest is a superset): its next snapshot leaves it out.
    i.load({ tracked: [], people: [], officials: [], names: (p) => p.text.includes('#ManaBoard') });
    i.readingAt(13, null);
    i.keep(like(x, T, 3));
    expect(i.size.waiting).toBe(2);
    expect(i.oldestWaiting()?.position).toBe(11);
  });
});
