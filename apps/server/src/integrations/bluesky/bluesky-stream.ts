import { IdResolver, MemoryCache } from '@atproto/identity';
import { Firehose, type Event } from '@atproto/sync';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { Database } from '../../db/schema';
import type { JobLog } from '../../jobs/job';
import type { StreamProgressReport } from '../../jobs/stream-progress-report';
import { readState, recordRun } from '../../modules/mana/ingest-state.repository';
import { activeRules } from '../../modules/programme/programme.service';
import { STREAM_JOB, type StreamEvent, type StreamIngest } from '../../modules/mana/stream-ingest.service';
import type { BlueskyGapFill } from './bluesky-gap-fill';
import { commitOp, MalformedRecordError, STREAM_COLLECTIONS, toStreamEvent } from './bluesky-events';

/** Where the stream stopped: the last event's sequence number and commit time, as stored in ingest_state. */
export type StreamCursor = { seq?: number; time?: string };

/**
 * How long Bluesky's relay keeps events to replay from a cursor. Assumed conservatively (the relay's replay window
 * is a setting of the relay): a stored cursor older than this is reported as a gap.
 */
export const RELAY_REPLAY_MS = 24 * 3_600_000;

export type BlueskyStreamOptions = {
  db: Kysely<Database>;
  ingest: StreamIngest;
  log: JobLog;
  clock: Clock;
  /** The relay (or, in tests, a PDS) serving com.atproto.sync.subscribeRepos, ws(s)://. */
  relayUrl: string;
  /** The PLC directory, to verify each commit's signature against its account's key. */
  plcUrl: string;
  /** A local test network over http (the identity resolver refuses http: otherwise). */
  allowHttp: boolean;
  /** Check each commit's signature here (BLUESKY_VERIFY_COMMITS); otherwise the relay's own check is trusted. */
  verifyCommits: boolean;
  /** Events stored per transaction at most (default 500). */
  batchSize?: number;
  /** A partial batch is stored after this long (default 1 s). */
  flushMs?: number;
  /** Longest wait between retries after a failed batch (default 60 s). */
  maxBackoffMs?: number;
  /** Fills a gap from authenticated search (with an app account); without it a gap heals only for known posts. */
  gapFill?: BlueskyGapFill | undefined;
  /** Told of each stored batch: events read since the last one, events stored, the newest event's time. */
  onProgress?: ((report: StreamProgressReport) => void) | undefined;
};

/**
 * The worker leader's consumer of the network's repository event stream (com.atproto.sync.subscribeRepos) with
 * the official @atproto/sync Firehose: each commit is verified against its account's signing key when
 * `verifyCommits` is on (else the relay's verification is trusted), decoded
 * (bluesky-events.ts) and buffered; a batch and its cursor are stored in one transaction by the engine's
 * StreamIngest. The Firehose awaits each event, so a full buffer holds the stream until it is stored.
 *
 * Failure never loses the cursor: when a batch cannot be stored, the consumer drops what it buffered, closes the
 * connection, and starts again from the stored cursor after a backoff (1 s, doubling, at most `maxBackoffMs`),
 * logging each failure and recording it in ingest_state (job `stream`). A connection that drops is reopened by
 * the Firehose from the newest cursor this process has seen. A malformed record is skipped with a log line.
 * A stored cursor older than the relay keeps (RELAY_REPLAY_MS) is reported as a gap: the relay cannot replay
 * it; the refresh job still reconciles the counts of every known post from getPosts.
 */
export class BlueskyStream {
  private firehose: Firehose | undefined;
  private buffer: StreamEvent[] = [];
  private lastSeen: StreamCursor = {};
  private stored: StreamCursor = {};
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private running = false;
  private generation = 0;
  private failures = 0;
  private malformed = 0;
  private seenSinceReport = 0;
  private readonly idResolver: IdResolver;
  private readonly waiters: Array<{ seq: number; resolve: () => void }> = [];
  private gapFilling: Promise<unknown> = Promise.resolve();
  private gapAbort = new AbortController();

  constructor(private readonly options: BlueskyStreamOptions) {
    this.idResolver = new IdResolver({
      plcUrl: options.plcUrl,
      didCache: new MemoryCache(),
      // The default fetch refuses http: (SSRF protection); only a local test network is reached over http.
      ...(options.allowHttp ? { fetch: globalThis.fetch } : {}),
    });
  }

  /** The cursor of the newest stored batch. */
  get cursor(): StreamCursor {
    return { ...this.stored };
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts reading from the stored cursor (the live end when there is none). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.connect().catch((error: unknown) => this.fail(error, this.generation));
  }

  /**
   * Stops reading: the connection closes, the batch being stored finishes, what was buffered but not stored is
   * dropped (the next start reads it again from the stored cursor).
   */
  async stop(): Promise<void> {
    this.running = false;
    this.generation++;
    clearTimeout(this.retry);
    clearInterval(this.timer);
    this.timer = undefined;
    const firehose = this.firehose;
    this.firehose = undefined;
    this.buffer = [];
    this.gapAbort.abort();
    await firehose?.destroy();
    await this.flushing;
    await this.gapFilling;
  }

  /** Settles once the gap fill this start began (if any) has ended (tests wait on it). */
  get gapFilled(): Promise<unknown> {
    return this.gapFilling;
  }

  /** Resolves once a batch reaching `seq` is stored (tests wait on it). */
  storedThrough(seq: number): Promise<void> {
    if ((this.stored.seq ?? 0) >= seq) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq, resolve }));
  }

  private async connect(): Promise<void> {
    const generation = this.generation;
    const state = await readState(this.options.db, STREAM_JOB);
    if (generation !== this.generation || !this.running) return;
    this.stored = (state?.cursor ?? {}) as StreamCursor;
    this.lastSeen = { ...this.stored };
    await this.reportGap(this.stored);
    const firehose = new Firehose({
      idResolver: this.idResolver,
      service: this.options.relayUrl,
      filterCollections: STREAM_COLLECTIONS,
      unauthenticatedCommits: !this.options.verifyCommits,
      // Identity events carry handle changes; the handle is resolved and confirmed by the engine (currentHandle)
      // for the accounts it knows, not by the Firehose for every account on the network.
      excludeIdentity: false,
      unauthenticatedHandles: true,
      excludeAccount: true,
      excludeSync: true,
      // A reconnect resumes after the newest event this process saw (what is buffered is stored next).
      getCursor: () => this.lastSeen.seq,
      handleEvent: (event) => this.onEvent(event, generation),
      onError: (error) =>
        this.options.log.warn({ err: error }, 'bluesky stream: event skipped or connection retried'),
    });
    this.firehose = firehose;
    this.timer = setInterval(
      () => void this.flush(generation).catch(() => undefined),
      this.options.flushMs ?? 1_000,
    );
    this.timer.unref();
    void firehose.start();
  }

  private async onEvent(event: Event, generation: number): Promise<void> {
    if (generation !== this.generation) return;
    this.seenSinceReport++;
    if (event.event === 'identity') {
      // Which handle is now the account's is asked (and confirmed) by the engine, for the accounts it knows.
      this.buffer.push({ type: 'identity', authorId: event.did });
      this.lastSeen = { seq: event.seq, time: event.time };
      return;
    }
    const op = commitOp(event);
    if (!op) return;
    try {
      const decoded = toStreamEvent(op);
      if (decoded) this.buffer.push(decoded);
    } catch (error) {
      if (!(error instanceof MalformedRecordError)) throw error;
      this.malformed++;
      this.options.log.warn({ reason: error.message }, 'bluesky stream: malformed record skipped');
    }
    this.lastSeen = { seq: event.seq, time: event.time };
    if (this.buffer.length >= (this.options.batchSize ?? 500)) await this.flush(generation);
  }

  /** Stores what is buffered with the newest cursor seen, one batch at a time. */
  private flush(generation: number): Promise<void> {
    const next = this.flushing.then(async () => {
      if (generation !== this.generation) return;
      const cursor = { ...this.lastSeen };
      if (cursor.seq === undefined || cursor.seq === this.stored.seq) return;
      const events = this.buffer;
      this.buffer = [];
      const { db, clock } = this.options;
      const startedAt = new Date(clock.now());
      try {
        const { version, rules } = await activeRules(db);
        const officials = await this.options.ingest.officialIds(rules, version);
        await this.options.ingest.ingest(rules, officials, events, cursor, new Date(clock.now()));
      } catch (error) {
        await this.fail(error, generation);
        return;
      }
      this.stored = cursor;
      this.failures = 0;
      this.options.onProgress?.({
        at: new Date(clock.now()),
        seen: this.seenSinceReport,
        stored: events.length,
        cursorTime: cursor.time ? new Date(cursor.time) : null,
      });
      this.seenSinceReport = 0;
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const waiter = this.waiters[i];
        if (waiter && waiter.seq <= (cursor.seq ?? 0)) {
          this.waiters.splice(i, 1);
          waiter.resolve();
        }
      }
      await recordRun(db, STREAM_JOB, {
        startedAt,
        finishedAt: new Date(clock.now()),
        error: null,
        calls: 0,
        nextRunAt: null,
        rateLimitResetAt: null,
      }).catch((failure: unknown) =>
        this.options.log.error({ err: failure }, 'bluesky stream: run not recorded'),
      );
    });
    this.flushing = next.catch(() => undefined);
    return next;
  }

  /** A batch could not be stored: everything after the stored cursor is read again after a backoff. */
  private async fail(error: unknown, generation: number): Promise<void> {
    if (generation !== this.generation) return;
    this.generation++;
    this.failures++;
    const delay = Math.min(this.options.maxBackoffMs ?? 60_000, 1_000 * 2 ** (this.failures - 1));
    this.options.log.error(
      { err: error, cursor: this.stored, retryInMs: delay },
      'bluesky stream: batch not stored; resuming from the stored cursor',
    );
    clearInterval(this.timer);
    this.buffer = [];
    const firehose = this.firehose;
    this.firehose = undefined;
    void firehose?.destroy();
    await this.record(error instanceof Error ? error.message : String(error));
    if (!this.running) return;
    this.retry = setTimeout(() => {
      if (this.running)
        void this.connect().catch((failure: unknown) => void this.fail(failure, this.generation));
    }, delay);
    this.retry.unref();
  }

  /**
   * A resume point older than the relay keeps: events were lost for good. With an app account the gap (and one an
   * earlier run did not finish) is filled from authenticated search beside the stream; without one, only known
   * posts heal (the refresh job's getPosts), and the log says so.
   */
  private async reportGap(cursor: StreamCursor): Promise<void> {
    const now = this.options.clock.now();
    const at = cursor.time ? Date.parse(cursor.time) : NaN;
    const gap = now - at > RELAY_REPLAY_MS ? { since: new Date(at), until: new Date(now) } : null;
    const fill = this.options.gapFill;
    if (gap) {
      const healing = fill
        ? 'posts written in between are searched for with the app account'
        : 'no app account (BLUESKY_APP_HANDLE, BLUESKY_APP_PASSWORD): only known posts heal via getPosts, posts written in between are not found';
      const message = `gap: the stream stopped at ${cursor.time} (seq ${cursor.seq ?? '?'}), older than the relay replays (${RELAY_REPLAY_MS / 3_600_000} h); events in between are lost, counts of known posts are reconciled by the refresh job; ${healing}`;
      this.options.log.error({ cursor }, `bluesky stream: ${message}`);
      await this.record(message);
    }
    if (!fill) return;
    const window = gap ?? (await fill.pending());
    if (!window) return;
    this.gapAbort = new AbortController();
    this.gapFilling = fill
      .fill(window, this.gapAbort.signal)
      .catch((error: unknown) => this.options.log.error({ err: error }, 'bluesky stream: gap fill stopped'));
  }

  private async record(error: string): Promise<void> {
    const now = new Date(this.options.clock.now());
    await recordRun(this.options.db, STREAM_JOB, {
      startedAt: now,
      finishedAt: now,
      error,
      calls: 0,
      nextRunAt: null,
      rateLimitResetAt: null,
    }).catch((failure: unknown) =>
      this.options.log.error({ err: failure }, 'bluesky stream: error not recorded'),
    );
  }
}
