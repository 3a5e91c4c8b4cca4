import type { PostEvent, StreamEvent } from './stream-events';
import { WaitingRoom, WAITING_TTL_MS, type ReadPosition } from './stream-waiting-room';

export { WAITING_LIMIT, WAITING_TTL_MS, type ReadPosition } from './stream-waiting-room';

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
  /** Likes, reposts, replies and quotes waiting for their post (stream-waiting-room.ts). */
  private readonly waiting: WaitingRoom;
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
  ) {
    this.waiting = new WaitingRoom(now);
  }

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

  /** The source reads the frame at `position` next (WaitingRoom.readingAt). */
  readingAt(position: number, time: string | null): void {
    this.waiting.readingAt(position, time);
  }

  /** A refill through `through` begins, or (null) ends (WaitingRoom.refill). */
  refill(through: ReadPosition | null): void {
    this.waiting.refill(through);
  }

  /** Whether a refill is under way (the source drops what `keep` passes meanwhile). */
  get refilling(): boolean {
    return this.waiting.refilling;
  }

  /** Where the oldest event still waiting was read (WaitingRoom.oldestWaiting). */
  oldestWaiting(): ReadPosition | null {
    return this.waiting.oldestWaiting();
  }

  /** The newest position read, or given up refilling to (WaitingRoom.readThrough). */
  get readThrough(): number {
    return this.waiting.readThrough;
  }

  set readThrough(position: number) {
    this.waiting.readThrough = position;
  }

  get size(): { tracked: number; people: number; waiting: number } {
    return { tracked: this.tracked.size, people: this.people.size, waiting: this.waiting.size };
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
    this.waiting.wait(postId, event);
  }

  private release(postId: string): StreamEvent[] {
    return this.waiting.release(postId).flatMap((e) => this.pass(e));
  }

  /** The engine stored everything the source passed so far (WaitingRoom.confirm). */
  confirm(): void {
    this.waiting.confirm();
  }

  /** A mark a reader that reads ahead takes at the end of each batch (WaitingRoom.releasedMark). */
  releasedMark(): number {
    return this.waiting.releasedMark();
  }

  /** The engine stored the batches up to the one that ended at `mark` (WaitingRoom.confirmThrough). */
  confirmThrough(mark: number): void {
    this.waiting.confirmThrough(mark);
  }

  /** The engine lost what the source passed since the last `confirm` (WaitingRoom.rewind). */
  rewind(): void {
    this.waiting.rewind();
  }
}
