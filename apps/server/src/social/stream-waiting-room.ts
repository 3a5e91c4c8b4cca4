import type { StreamEvent } from './stream-events';
import type { ReadPosition } from './stream-read-position';
import { Pieces } from './stream-waiting-bytes';
import { PostKeys } from './stream-waiting-keys';
import {
  packedAt,
  packedRead,
  packVote,
  unpackVote,
  withGeneration,
  type PackedVote,
} from './stream-waiting-vote';

/** Events waiting for a post the stream has not shown yet, at most this many (the oldest leave first)... */
export const WAITING_LIMIT = 50_000;
/**
 * ...each for at most this long; and an event about a post its source says was made more than this long before the
 * event does not wait at all (the stream showed that post long ago, so it is not one the programme follows).
 */
export const WAITING_TTL_MS = 15 * 60_000;

export type { ReadPosition } from './stream-read-position';

/**
 * An event waiting for its post: a like or repost packed (stream-waiting-vote.ts: ~120 bytes where an object with
 * its strings took ~650, issue 31), or any other event as it came, with since when it waits (this process's clock)
 * and where the source read it (null: unknown).
 */
type Waiting = PackedVote | WaitingEvent;

class WaitingEvent {
  constructor(
    readonly event: StreamEvent,
    readonly at: number,
    readonly read: ReadPosition | null,
  ) {}
}

/**
 * What waits for one post, in the order it began to wait: one entry as it is (most posts a like names get one, and
 * an array for it took ~150 bytes more), or an array of two or more (never empty).
 */
type Entries = Waiting | Waiting[];

const firstOf = (entries: Entries): Waiting => (Array.isArray(entries) ? (entries[0] ?? '') : entries);
const countOf = (entries: Entries): number => (Array.isArray(entries) ? entries.length : 1);
const listOf = (entries: Entries): Waiting[] => (Array.isArray(entries) ? entries : [entries]);
const atOf = (w: Waiting): number => (typeof w === 'string' ? packedAt(w) : w.at);
const readOf = (w: Waiting): ReadPosition | null => (typeof w === 'string' ? packedRead(w) : w.read);

/** What an entry of the queue behind its head holds: nothing (WaitingRoom.advance); no entry is an empty string. */
const PASSED = '';

/**
 * The interest's waiting room (stream-interest.ts): likes, reposts, replies and quotes of a post the stream has not
 * shown yet, by post, bounded (WAITING_LIMIT, WAITING_TTL_MS), released when their post turns out to be tracked.
 * It remembers what it released until the engine stored it (`confirm`), so a lost batch puts it back (`rewind`);
 * and where each event was read, so the engine can store where the oldest still waiting was (`oldestWaiting`) and a
 * new process can read from there again to fill it (`refill`; issue 32).
 */
export class WaitingRoom {
  /** What waits, by post: the key of its id (stream-waiting-keys.ts), as are `order`'s and `outOfOrder`'s. */
  private readonly lists = new Map<string, Entries>();
  private readonly keys = new PostKeys();
  private count = 0;
  /** The pieces of the ids and authors of the likes and reposts packed (stream-waiting-vote.ts). */
  private readonly pieces = new Pieces();
  /** How many lists began: each list's first entry carries the count then, so no two are the same (`order`). */
  private generation = 0;
  /**
   * The waiting posts in the order they began to wait, each with the first entry of its list (a list of one is that
   * entry, not an array, and may become one: its first entry stays, and tells it apart from any list the post had
   * before or after): the eviction reads this queue from its head. An entry whose post's list no longer begins with
   * that one (released, or released and waited for again later in the queue) is passed over. (Not the Map's own
   * order: iterating a Map from its start walks every entry deleted since V8 last rehashed it, so a full waiting room
   * that churns paid for tens of thousands of dead entries on every like.) An entry the head passes is emptied at
   * once (`advance`): the arrays are cut down only now and then, and until then the lists behind the head held up to
   * WAITING_LIMIT evicted events more (issue 31).
   */
  private order: { ids: string[]; firsts: Waiting[]; head: number } = { ids: [], firsts: [], head: 0 };
  /**
   * Events released from the waiting room since the engine last stored what the source passed
   * (`confirm`): they are in the source's batch under way. If that batch is lost (the connection or the database
   * failed), the source reads again from the stored cursor, which may lie past these events, so they go back to
   * wait for their post (`rewind`), which comes again.
   */
  private released: Array<{ key: string; entries: Entries }> = [];
  /**
   * Where the source reads (readingAt); a ReadPosition is made only once an event begins to wait (a packed like
   * keeps its numbers, not the object).
   */
  private reading: { position: number; time: string | null; made: ReadPosition | null } | null = null;
  /**
   * Posts whose waiting list may hold an event read before one that began to wait earlier in `order` (a rewind, a
   * source reading again from its stored cursor): `oldestWaiting` looks at these besides the queue's head.
   */
  private readonly outOfOrder = new Set<string>();
  /** The newest position an event began to wait at. */
  private newestWaited = -Infinity;
  /** A refill under way: through which position, and its network time (ms; NaN). */
  private refillThrough: { position: number; time: number } | null = null;
  /**
   * The newest position read (or given up refilling to): what lies before it is in the room already, so a source
   * refills only what lies after it (a new room has read nothing).
   */
  readThrough = -Infinity;

  constructor(private readonly now: () => number) {}

  /** Events waiting. */
  get size(): number {
    return this.count;
  }

  /** The source reads the frame at `position` next: the events that begin to wait record it (oldestWaiting). */
  readingAt(position: number, time: string | null): void {
    const reading = this.reading;
    if (reading) {
      reading.position = position;
      reading.time = time;
      reading.made = null;
    } else this.reading = { position, time, made: null };
    if (position > this.readThrough) this.readThrough = position;
    if (this.refillThrough && position > this.refillThrough.position) this.refillThrough = null;
  }

  /**
   * A source reads again, up to and including `through`, what a process that died had read already (its stored
   * cursor), to refill the waiting room with what waited then; null ends it. Meanwhile an event that begins to wait
   * is dated back by how long before `through` it was read (the network's time), so it waits only what is left of
   * its WAITING_TTL_MS, and what its post releases is not remembered for a `rewind` (it was stored long ago: the
   * source drops it). It ends by itself at the first position after `through`.
   */
  refill(through: ReadPosition | null): void {
    this.refillThrough = through && {
      position: through.position,
      time: through.time ? Date.parse(through.time) : NaN,
    };
  }

  /** Whether a refill is under way (the source drops what `keep` passes meanwhile). */
  get refilling(): boolean {
    return this.refillThrough !== null;
  }

  /**
   * Where the oldest event still waiting was read (null: none, or no positions): a source hands it on with each batch
   * and the engine stores it beside the cursor, for a new process to `refill` from. Released events are not counted:
   * their batch is stored with (or before) this answer, or lost with it.
   */
  oldestWaiting(): ReadPosition | null {
    let oldest: ReadPosition | null = null;
    const consider = (entries: Entries) => {
      for (const w of listOf(entries)) {
        const read = readOf(w);
        if (read && (!oldest || read.position < oldest.position)) oldest = read;
      }
    };
    // The queue's first live list: every list begun in order after it was read after it (outOfOrder holds the rest).
    const order = this.order;
    while (order.head < order.ids.length) {
      const entries = this.lists.get(order.ids[order.head] ?? '');
      if (entries !== undefined && firstOf(entries) === order.firsts[order.head]) {
        consider(entries);
        break;
      }
      this.advance();
    }
    for (const id of this.outOfOrder) {
      const entries = this.lists.get(id);
      if (entries !== undefined) consider(entries);
      else this.outOfOrder.delete(id);
    }
    return oldest;
  }

  /** `event` waits for the post `postId`. */
  wait(postId: string, event: StreamEvent): void {
    const now = this.now();
    const reading = this.reading;
    const read = reading && (reading.made ??= { position: reading.position, time: reading.time });
    const age = this.refillThrough ? this.refillAge(read) : 0;
    if (age >= WAITING_TTL_MS) return; // read again by a refill, and it would have left the waiting room by now
    const at = now - age;
    const key = this.keys.keyOf(postId);
    if (read) {
      if (read.position < this.newestWaited) this.outOfOrder.add(key);
      else this.newestWaited = read.position;
    }
    const entries = this.lists.get(key);
    const generation = entries === undefined ? (this.generation = (this.generation + 1) >>> 0) : 0;
    const entry =
      packVote(this.pieces, postId, event, at, read, generation) ?? new WaitingEvent(event, at, read);
    if (entries === undefined) {
      this.lists.set(key, entry);
      this.order.ids.push(key);
      this.order.firsts.push(entry);
    } else if (Array.isArray(entries)) entries.push(entry);
    else this.lists.set(key, [entries, entry]);
    this.count++;
    this.evict(now);
  }

  /** How long before the refill's end an event read at `read` was read, in the network's time (0 if unknown). */
  private refillAge(read: ReadPosition | null): number {
    const end = this.refillThrough?.time ?? NaN;
    const time = read?.time && Number.isFinite(end) ? Date.parse(read.time) : NaN;
    return Number.isFinite(time) ? Math.max(0, end - time) : 0;
  }

  /** Oldest first: past the age or over the limit, they are dropped. */
  private evict(at: number): void {
    const order = this.order;
    while (order.head < order.ids.length) {
      const id = order.ids[order.head] ?? '';
      const entries = this.lists.get(id);
      const first = entries === undefined ? undefined : firstOf(entries);
      const current = first !== undefined && first === order.firsts[order.head] ? first : undefined;
      if (current !== undefined && this.count <= WAITING_LIMIT && at - atOf(current) < WAITING_TTL_MS) break;
      this.advance();
      if (current !== undefined && entries !== undefined) {
        this.lists.delete(id);
        this.count -= countOf(entries);
      }
    }
    if (order.head > 4096 && order.head * 2 > order.ids.length) {
      this.order = { ids: order.ids.slice(order.head), firsts: order.firsts.slice(order.head), head: 0 };
    }
  }

  /** Moves the queue's head past its entry, which keeps nothing alive from then on (its list may be evicted). */
  private advance(): void {
    const order = this.order;
    order.ids[order.head] = '';
    order.firsts[order.head] = PASSED;
    order.head++;
  }

  /** The events that waited for `postId`, which turned out to be tracked (none: none waited). */
  release(postId: string): StreamEvent[] {
    const key = this.keys.keyOf(postId);
    const entries = this.lists.get(key);
    if (entries === undefined) return [];
    this.lists.delete(key);
    this.count -= countOf(entries);
    if (!this.refillThrough) this.released.push({ key, entries });
    return listOf(entries).map((w) => (typeof w === 'string' ? unpackVote(this.pieces, postId, w) : w.event));
  }

  /** The engine stored everything the source passed so far: the events released into it are counted. */
  confirm(): void {
    if (this.released.length) this.released = [];
  }

  /** How many releases are not confirmed yet: a mark a reader that reads ahead takes at the end of each batch. */
  releasedMark(): number {
    return this.released.length;
  }

  /**
   * The engine stored the batches up to one whose end was `mark` (releasedMark): the releases before it are
   * counted; those after it belong to batches read ahead, not stored yet, and still go back on a `rewind`.
   */
  confirmThrough(mark: number): void {
    if (mark > 0) this.released.splice(0, mark);
  }

  /**
   * The engine lost what the source passed since the last `confirm` (it reads again from the stored cursor): the
   * events released from the waiting room since then wait again, as they were, for their post to come again.
   */
  rewind(): void {
    const released = this.released;
    this.released = [];
    for (const { key, entries } of released) {
      // Back in the queue as the post's waiting list now begins, its first entry made anew: the queue's entry of the
      // list released, and of one it replaces, are passed over.
      const now = this.lists.get(key);
      const back = now === undefined ? [...listOf(entries)] : [...listOf(entries), ...listOf(now)];
      const first = back[0] ?? '';
      this.generation = (this.generation + 1) >>> 0;
      back[0] =
        typeof first === 'string'
          ? withGeneration(first, this.generation)
          : new WaitingEvent(first.event, first.at, first.read);
      this.lists.set(key, back.length === 1 ? (back[0] ?? '') : back);
      this.order.ids.push(key);
      this.order.firsts.push(back[0] ?? '');
      this.count += countOf(entries);
      this.outOfOrder.add(key);
    }
    if (released.length) this.evict(this.now());
  }
}
