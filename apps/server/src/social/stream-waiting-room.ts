import type { StreamEvent } from './stream-events';

/** Events waiting for a post the stream has not shown yet, at most this many (the oldest leave first)... */
export const WAITING_LIMIT = 50_000;
/**
 * ...each for at most this long; and an event about a post its source says was made more than this long before the
 * event does not wait at all (the stream showed that post long ago, so it is not one the programme follows).
 */
export const WAITING_TTL_MS = 15 * 60_000;

/**
 * Where a source reads, as the interest records it with each event that begins to wait: the frame's `position`, a
 * number that grows along the stream (Bluesky: its seq), and the network's `time` of it (ISO 8601; null if unknown).
 */
export type ReadPosition = { position: number; time: string | null };

/** What an entry of the queue behind its head holds: nothing (WaitingRoom.advance). */
const PASSED: Waiting[] = [];

/**
 * A like or repost waiting for its post, flat (issue 31): on the public network nearly every like names a post the
 * programme never sees, so a full room is ~50,000 of these. The event as the source made it (its subject a
 * reference of its own, its time a Date, ~0.8 KB with the room's share) is built again only when its post releases
 * it: its subject's id is the post the list waits for (`release`'s key), its time a number of ms.
 */
class WaitingVote {
  constructor(
    readonly type: 'like' | 'repost',
    readonly id: string,
    readonly authorId: string,
    readonly subjectAuthorId: string,
    readonly createdAt: number,
    /** The event's `cid`; undefined: the event had none. */
    readonly cid: string | null | undefined,
    readonly at: number,
    readonly read: ReadPosition | null,
  ) {}

  /** The event again, as the source made it, for the post `postId` (its subject's id). */
  event(postId: string): StreamEvent {
    return {
      type: this.type,
      id: this.id,
      authorId: this.authorId,
      subject: { id: postId, authorId: this.subjectAuthorId },
      createdAt: new Date(this.createdAt),
      ...(this.cid !== undefined ? { cid: this.cid } : {}),
    };
  }
}

/**
 * An event waiting for its post: since when (this process's clock) and where the source read it (null: unknown). A
 * like or repost of that post is kept flat (WaitingVote); a reply or quote as it came.
 */
type Waiting = WaitingVote | { event: StreamEvent; at: number; read: ReadPosition | null };

/** `event` waiting for the post `postId`, as the room keeps it. */
function waiting(postId: string, event: StreamEvent, at: number, read: ReadPosition | null): Waiting {
  if ((event.type === 'like' || event.type === 'repost') && event.subject.id === postId && !event.proof)
    return new WaitingVote(
      event.type,
      event.id,
      event.authorId,
      event.subject.authorId,
      event.createdAt.getTime(),
      event.cid,
      at,
      read,
    );
  return { event, at, read };
}

/** The waiting event as the source made it (for the post `postId`). */
const eventOf = (postId: string, w: Waiting): StreamEvent =>
  w instanceof WaitingVote ? w.event(postId) : w.event;

/**
 * The interest's waiting room (stream-interest.ts): likes, reposts, replies and quotes of a post the stream has not
 * shown yet, by post, bounded (WAITING_LIMIT, WAITING_TTL_MS), released when their post turns out to be tracked.
 * It remembers what it released until the engine stored it (`confirm`), so a lost batch puts it back (`rewind`);
 * and where each event was read, so the engine can store where the oldest still waiting was (`oldestWaiting`) and a
 * new process can read from there again to fill it (`refill`; issue 32).
 */
export class WaitingRoom {
  private readonly lists = new Map<string, Waiting[]>();
  private count = 0;
  /**
   * The waiting posts in the order they began to wait, each with its list: the eviction reads this queue from its
   * head. An entry whose post's list is no longer that one (released, or released and waited for again later in the
   * queue) is passed over. (Not the Map's own order: iterating a Map from its start walks every entry deleted since
   * V8 last rehashed it, so a full waiting room that churns paid for tens of thousands of dead entries on every like.)
   * An entry the head passes is emptied at once (`advance`): the arrays are cut down only now and then, and until then
   * the lists behind the head held up to WAITING_LIMIT evicted events more, some 1 KB each (issue 31).
   */
  private order: { ids: string[]; lists: Waiting[][]; head: number } = { ids: [], lists: [], head: 0 };
  /**
   * Events released from the waiting room since the engine last stored what the source passed
   * (`confirm`): they are in the source's batch under way. If that batch is lost (the connection or the database
   * failed), the source reads again from the stored cursor, which may lie past these events, so they go back to
   * wait for their post (`rewind`), which comes again.
   */
  private released: Array<{ postId: string; list: Waiting[] }> = [];
  /** Where the source reads (readingAt); a ReadPosition is made only once an event begins to wait (rare). */
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
    const consider = (list: readonly Waiting[]) => {
      for (const w of list) if (w.read && (!oldest || w.read.position < oldest.position)) oldest = w.read;
    };
    // The queue's first live list: every list begun in order after it was read after it (outOfOrder holds the rest).
    const order = this.order;
    while (order.head < order.ids.length) {
      const list = this.lists.get(order.ids[order.head] ?? '');
      if (list && list === order.lists[order.head]) {
        consider(list);
        break;
      }
      this.advance();
    }
    for (const id of this.outOfOrder) {
      const list = this.lists.get(id);
      if (list) consider(list);
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
    if (read) {
      if (read.position < this.newestWaited) this.outOfOrder.add(postId);
      else this.newestWaited = read.position;
    }
    const entry = waiting(postId, event, at, read);
    const list = this.lists.get(postId);
    if (list) list.push(entry);
    else {
      const begun = [entry];
      this.lists.set(postId, begun);
      this.order.ids.push(postId);
      this.order.lists.push(begun);
    }
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
      const list = this.lists.get(id);
      const current = list !== undefined && list === order.lists[order.head] ? list : undefined;
      if (current && this.count <= WAITING_LIMIT && at - (current[0]?.at ?? at) < WAITING_TTL_MS) break;
      this.advance();
      if (current) {
        this.lists.delete(id);
        this.count -= current.length;
      }
    }
    if (order.head > 4096 && order.head * 2 > order.ids.length) {
      this.order = { ids: order.ids.slice(order.head), lists: order.lists.slice(order.head), head: 0 };
    }
  }

  /** Moves the queue's head past its entry, which keeps nothing alive from then on (its list may be evicted). */
  private advance(): void {
    const order = this.order;
    order.ids[order.head] = '';
    order.lists[order.head] = PASSED;
    order.head++;
  }

  /** The events that waited for `postId`, which turned out to be tracked (none: none waited). */
  release(postId: string): StreamEvent[] {
    const list = this.lists.get(postId);
    if (!list) return [];
    this.lists.delete(postId);
    this.count -= list.length;
    if (!this.refillThrough) this.released.push({ postId, list });
    return list.map((w) => eventOf(postId, w));
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
    for (const { postId, list } of released) {
      // Back in the queue as the post's waiting list now begins (the entry of a list it replaces is passed over).
      const back = [...list, ...(this.lists.get(postId) ?? [])];
      this.lists.set(postId, back);
      this.order.ids.push(postId);
      this.order.lists.push(back);
      this.count += list.length;
      this.outOfOrder.add(postId);
    }
    if (released.length) this.evict(this.now());
  }
}
