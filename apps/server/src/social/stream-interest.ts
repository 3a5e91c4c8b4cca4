import type { PostEvent, StreamEvent } from './stream-events';

/** Events waiting for a post the stream has not shown yet, at most this many (the oldest leave first)... */
export const WAITING_LIMIT = 50_000;
/**
 * ...each for at most this long; and an event about a post its source says was made more than this long before the
 * event does not wait at all (the stream showed that post long ago, so it is not one the programme follows).
 */
export const WAITING_TTL_MS = 15 * 60_000;

/**
 * A namer a source's worker thread can build again from plain data (programmeNamer attaches its terms): a function
 * cannot cross to a thread. A namer without `terms` keeps the source in the serving thread.
 */
export type Namer = ((post: PostEvent) => boolean) & { readonly terms?: unknown };

/**
 * The interest as plain data, for a source that filters in a worker thread (bluesky-stream-thread.ts): the thread
 * holds a copy and is told each change (`onChange`).
 */
export type PortableInterest = {
  tracked: string[];
  people: string[];
  officials: string[];
  /** The namer's terms (Namer.terms); null: names nothing. */
  terms: unknown;
};

/** A change of the interest the engine made: a snapshot loaded, or posts and accounts added. */
export type InterestChange =
  /** null: the new namer has no terms (a copy elsewhere cannot follow it). */
  { kind: 'load'; interest: PortableInterest | null } | { kind: 'add'; tracked: string[]; people: string[] };

/**
 * Where a source reads, as the interest records it with each event that begins to wait: the frame's `position`, a
 * number that grows along the stream (Bluesky: its seq), and the network's `time` of it (ISO 8601; null if unknown).
 */
export type ReadPosition = { position: number; time: string | null };

/** An event waiting for its post: since when (this process's clock) and where the source read it (null: unknown). */
type Waiting = { event: StreamEvent; at: number; read: ReadPosition | null };

/** The interest's default namer: nothing names the programme until a snapshot is loaded. */
const namesNothing: Namer = Object.assign(() => false, { terms: null });

/** What the engine knows of the programme, to load into the interest (jobs/stream.job.ts). */
export type InterestSnapshot = {
  /** Posts whose likes, reposts, replies and quotes count: tracked posts still moving, official posts. */
  tracked: Iterable<string>;
  /** Accounts whose deletions and identity changes matter: authors, counted records' authors, linked members. */
  people: Iterable<string>;
  /** The official accounts' network user ids. */
  officials: Iterable<string>;
  /** Whether a post names the programme (its terms: keywords, hashtags, official mentions). */
  names: Namer;
};

/**
 * What the programme cares about, held in memory so a source drops the events that concern nobody before they
 * reach the database (on the public network almost all of them). The engine loads it from the database and keeps
 * it current; a source asks `concernsAccount` before decoding a deletion or identity event and `keep` once a record
 * is decoded. `keep` is a superset of what the engine stores (the engine decides with the database): an event it
 * drops can change nothing, one it keeps may still change nothing.
 *
 * A source reads ahead of what is stored, so `keep` records at once what it lets through (a post that names the
 * programme is tracked from then on, its author's deletions matter). Likes, reposts, replies and quotes of a post not
 * known yet wait (bounded: WAITING_LIMIT, WAITING_TTL_MS): events of different accounts arrive in no causal order,
 * and they pass with their post if it turns out to be tracked. On the public network nearly every like names a post
 * the programme has never seen; where the network's post ids tell when a post was made (`madeAt`, Bluesky's TIDs),
 * one of a post made more than WAITING_TTL_MS before the like is dropped at once instead of filling the waiting room.
 * The waiting room is memory: the engine stores where its oldest event was read (`oldestWaiting`) with the cursor,
 * so a new process reads from there again to fill it (`refill`; issue 32).
 */
export class StreamInterest {
  private tracked = new Set<string>();
  private people = new Set<string>();
  private officials = new Set<string>();
  private names: Namer = namesNothing;
  private readonly waiting = new Map<string, Waiting[]>();
  private waitingCount = 0;
  /**
   * The waiting posts in the order they began to wait, each with its list: the eviction reads this queue from its
   * head. An entry whose post's list is no longer that one (released, or released and waited for again later in the
   * queue) is passed over. (Not the Map's own order: iterating a Map from its start walks every entry deleted since
   * V8 last rehashed it, so a full waiting room that churns paid for tens of thousands of dead entries on every like.)
   */
  private order: { ids: string[]; lists: Waiting[][]; head: number } = { ids: [], lists: [], head: 0 };
  /**
   * Events `keep` released from the waiting room since the engine last stored what the source passed
   * (`confirm`): they are in the source's batch under way. If that batch is lost (the connection or the database
   * failed), the source reads again from the stored cursor, which may lie past these events, so they go back to
   * wait for their post (`rewind`), which comes again.
   */
  private released: Array<{ postId: string; list: Waiting[] }> = [];
  /** Where the source reads now (readingAt), recorded with each event that begins to wait. */
  private reading: ReadPosition | null = null;
  /**
   * Posts whose waiting list may hold an event read before one that began to wait earlier in `order` (a rewind, a
   * source reading again from its stored cursor): `oldestWaiting` looks at these besides the queue's head.
   */
  private readonly outOfOrder = new Set<string>();
  /** The newest position an event began to wait at. */
  private newestWaited = -Infinity;
  /** A refill under way (`refill`): through which read position, and that position's network time (ms; NaN). */
  private refillThrough: { position: number; time: number } | null = null;
  /**
   * The newest position this interest has read (or given up refilling to): what lies before it is in its waiting
   * room already, so a source refills only what lies after it (a fresh interest has read nothing).
   */
  readThrough = -Infinity;
  /** What `keep` added since the engine began loading a snapshot (it must survive the snapshot). */
  private addedSince: { tracked: string[]; people: string[] } | null = null;
  /** Told of each snapshot loaded and each addition by the engine (a worker thread's copy follows them). */
  private readonly listeners = new Set<(change: InterestChange) => void>();
  /** Told of each post and account `keep` lets through (the worker thread's journal of what it read ahead). */
  onKept: ((kind: 'tracked' | 'people', id: string) => void) | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    /** When a post was made, where the network's ids tell (StreamSource.postMadeAt). */
    private readonly madeAt?: (postId: string) => number | undefined,
  ) {}

  /** The engine is about to read a snapshot: what the source lets through meanwhile is kept across `load`. */
  beginLoad(): void {
    this.addedSince = { tracked: [], people: [] };
  }

  /** Replaces what the interest knows with the engine's snapshot (plus what passed since `beginLoad`). */
  load(snapshot: InterestSnapshot): void {
    const added = this.addedSince;
    this.tracked = new Set(snapshot.tracked);
    this.people = new Set(snapshot.people);
    this.officials = new Set(snapshot.officials);
    for (const id of this.officials) this.people.add(id);
    for (const id of added?.tracked ?? []) this.tracked.add(id);
    for (const id of added?.people ?? []) this.people.add(id);
    this.names = snapshot.names;
    this.addedSince = null;
    if (this.listeners.size > 0) {
      const change: InterestChange = { kind: 'load', interest: this.portable() };
      for (const listener of this.listeners) listener(change);
    }
  }

  /** Tells the interest about posts and accounts the engine now follows (e.g. found by a gap fill). */
  add(tracked: Iterable<string>, people: Iterable<string>): void {
    const added = this.listeners.size > 0 ? { tracked: [...tracked], people: [...people] } : null;
    for (const id of added?.tracked ?? tracked) this.track(id);
    for (const id of added?.people ?? people) this.involve(id);
    if (added) for (const listener of this.listeners) listener({ kind: 'add', ...added });
  }

  /** Whether `portable` gives the interest (its namer has terms). */
  get movable(): boolean {
    return this.names.terms !== undefined;
  }

  /** The interest as plain data, or null when its namer cannot be built again elsewhere (it has no terms). */
  portable(): PortableInterest | null {
    if (this.names.terms === undefined) return null;
    return {
      tracked: [...this.tracked],
      people: [...this.people],
      officials: [...this.officials],
      terms: this.names.terms,
    };
  }

  /** Calls `listener` on each snapshot loaded and each `add`; returns the unsubscribe. */
  onChange(listener: (change: InterestChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The source reads the frame at `read` next: the events that begin to wait record it (oldestWaiting). */
  readingAt(position: number, time: string | null): void {
    this.reading = { position, time };
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
   * Where the oldest event still waiting was read (null: none waits, or the source says nothing of positions): a
   * source that takes a batch hands it on with the batch, and the engine stores it beside the batch's cursor, so a
   * process that dies can refill its waiting room from there (`refill`). Events released into a batch are not
   * counted: the batch is stored with (or before) this answer, or it is lost and neither is stored.
   */
  oldestWaiting(): ReadPosition | null {
    let oldest: ReadPosition | null = null;
    const consider = (list: readonly Waiting[]) => {
      for (const w of list) if (w.read && (!oldest || w.read.position < oldest.position)) oldest = w.read;
    };
    // The queue's first live list: every list begun in order after it was read after it (outOfOrder holds the rest).
    const order = this.order;
    while (order.head < order.ids.length) {
      const list = this.waiting.get(order.ids[order.head] ?? '');
      if (list && list === order.lists[order.head]) {
        consider(list);
        break;
      }
      order.head++;
    }
    for (const id of this.outOfOrder) {
      const list = this.waiting.get(id);
      if (list) consider(list);
      else this.outOfOrder.delete(id);
    }
    return oldest;
  }

  get size(): { tracked: number; people: number; waiting: number } {
    return { tracked: this.tracked.size, people: this.people.size, waiting: this.waitingCount };
  }

  /** Whether a deletion or identity change by this account can matter (asked before decoding anything). */
  concernsAccount(accountId: string): boolean {
    return this.people.has(accountId);
  }

  /**
   * The events to pass on for one decoded event: none (it concerns nobody, or it waits for its post), the event,
   * or the event followed by those that waited for it.
   */
  keep(event: StreamEvent): StreamEvent[] {
    switch (event.type) {
      case 'delete':
      case 'identity':
        return this.people.has(event.authorId) ? [event] : [];
      case 'like':
      case 'repost':
        if (this.counts(event.subject.id, event.subject.authorId)) return this.pass(event);
        if (!this.settled(event.subject.id, event.createdAt)) this.wait(event.subject.id, event);
        return [];
      case 'post':
        return this.keepPost(event);
    }
  }

  private keepPost(post: PostEvent): StreamEvent[] {
    const official = this.officials.has(post.authorId);
    if (!post.replyTo && (official || this.names(post))) {
      this.track(post.id);
      return [...this.pass(post), ...this.release(post.id)];
    }
    const edges = [post.replyTo, post.quotes].filter((ref) => ref !== null);
    if (edges.some((ref) => this.counts(ref.id, ref.authorId))) return this.pass(post);
    for (const ref of edges) if (!this.settled(ref.id, post.createdAt)) this.wait(ref.id, post);
    return [];
  }

  /** Whether the post was made so long before `at` that the stream showed it already (so it is not followed). */
  private settled(postId: string, at: Date): boolean {
    const made = this.madeAt?.(postId);
    return made !== undefined && at.getTime() - made > WAITING_TTL_MS;
  }

  private counts(postId: string, authorId: string): boolean {
    return this.tracked.has(postId) || this.officials.has(authorId);
  }

  private pass(event: StreamEvent): StreamEvent[] {
    this.involve(event.authorId);
    return [event];
  }

  private track(id: string): void {
    if (this.tracked.has(id)) return;
    this.tracked.add(id);
    this.addedSince?.tracked.push(id);
    this.onKept?.('tracked', id);
  }

  private involve(id: string): void {
    if (this.people.has(id)) return;
    this.people.add(id);
    this.addedSince?.people.push(id);
    this.onKept?.('people', id);
  }

  private wait(postId: string, event: StreamEvent): void {
    const now = this.now();
    const read = this.reading;
    const age = this.refillAge(read);
    if (age >= WAITING_TTL_MS) return; // read again by a refill, and it would have left the waiting room by now
    const at = now - age;
    if (read) {
      if (read.position < this.newestWaited) this.outOfOrder.add(postId);
      else this.newestWaited = read.position;
    }
    const list = this.waiting.get(postId);
    if (list) list.push({ event, at, read });
    else {
      const begun = [{ event, at, read }];
      this.waiting.set(postId, begun);
      this.order.ids.push(postId);
      this.order.lists.push(begun);
    }
    this.waitingCount++;
    this.evict(now);
  }

  /** How long before the refill's end an event read at `read` was read, in the network's time (0 if unknown). */
  private refillAge(read: ReadPosition | null): number {
    const end = this.refillThrough?.time;
    const time = read?.time ? Date.parse(read.time) : NaN;
    return end !== undefined && Number.isFinite(end) && Number.isFinite(time) ? Math.max(0, end - time) : 0;
  }

  /** Oldest first: past the age or over the limit, they are dropped. */
  private evict(at: number): void {
    const order = this.order;
    while (order.head < order.ids.length) {
      const id = order.ids[order.head] ?? '';
      const list = this.waiting.get(id);
      const current = list !== undefined && list === order.lists[order.head] ? list : undefined;
      if (current && this.waitingCount <= WAITING_LIMIT && at - (current[0]?.at ?? at) < WAITING_TTL_MS)
        break;
      order.head++;
      if (current) {
        this.waiting.delete(id);
        this.waitingCount -= current.length;
      }
    }
    if (order.head > 4096 && order.head * 2 > order.ids.length) {
      this.order = { ids: order.ids.slice(order.head), lists: order.lists.slice(order.head), head: 0 };
    }
  }

  private release(postId: string): StreamEvent[] {
    const list = this.waiting.get(postId);
    if (!list) return [];
    this.waiting.delete(postId);
    this.waitingCount -= list.length;
    if (!this.refillThrough) this.released.push({ postId, list });
    return list.map((w) => w.event).flatMap((e) => this.pass(e));
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
      const back = [...list, ...(this.waiting.get(postId) ?? [])];
      this.waiting.set(postId, back);
      this.order.ids.push(postId);
      this.order.lists.push(back);
      this.waitingCount += list.length;
      this.outOfOrder.add(postId);
    }
    if (released.length) this.evict(this.now());
  }
}
