import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock';
import type { Database } from '../db/schema';
import { recordRun, saveCursor } from '../modules/mana/ingest-state.repository';
import { programmeNamer, STREAM_JOB } from '../modules/mana/stream-events';
import type { StreamIngest } from '../modules/mana/stream-ingest.service';
import { readInterest } from '../modules/mana/stream-interest.repository';
import { activeRules } from '../modules/programme/programme.service';
import { StreamInterest } from '../social/stream-interest';
import type { StreamBatch, StreamCursor, StreamEvent, StreamSource } from '../social/stream-source';
import type { JobLog } from './job';
import type { StreamProgressReport } from './stream-progress-report';

type Deps = {
  db: Kysely<Database>;
  ingest: StreamIngest;
  log: JobLog;
  clock: Clock;
  onProgress?: (report: StreamProgressReport) => void;
  cursorEveryMs?: number;
  interestEveryMs?: number;
  /** The source, for when its posts were made (the interest judges old subjects at once). */
  source?: Pick<StreamSource, 'postMadeAt'>;
};

/**
 * The stream job's storing side: each batch with its cursor in one transaction (StreamIngest); a cursor alone (a
 * batch of events that concern nobody) at most once every `cursorEveryMs`, by a timer when nothing follows; one
 * progress report per save; the in-memory interest loaded from the database and kept current. Saves run one at a
 * time, in order.
 */
export class StreamStore {
  stored: StreamCursor = {};
  readonly interest: StreamInterest;
  /** False once the job stopped: a deferred cursor save is dropped, never written after a stop. */
  active = false;
  private readonly waiters: Array<{ reached: (cursor: StreamCursor) => boolean; resolve: () => void }> = [];
  private pending: {
    cursor: StreamCursor;
    seen: number;
    cursorTime: Date | null;
    waiting: StreamCursor | null;
  } | null = null;
  private savedAt = 0;
  private recordedAt = 0;
  private loadedAt = 0;
  private rulesVersion = -1;
  private flushTimer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(private readonly deps: Deps) {
    this.interest = new StreamInterest(() => deps.clock.now(), deps.source?.postMadeAt);
  }

  /** Resolves once a stored cursor satisfies `reached`. */
  storedUntil(reached: (cursor: StreamCursor) => boolean): Promise<void> {
    if (reached(this.stored)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ reached, resolve }));
  }

  /** Forgets a cursor not saved yet (the source will read its events again). */
  drop(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.pending = null;
  }

  /** Settles once the save under way (if any) has ended. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Stores a batch, after the saves before it. */
  put(batch: StreamBatch): Promise<void> {
    return this.enqueue(() => this.store(batch));
  }

  /** Store operations run one at a time (a batch, a deferred cursor save). */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.chain.then(task);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async store(batch: StreamBatch): Promise<void> {
    const { db, clock, ingest } = this.deps;
    const now = clock.now();
    if (batch.events.length === 0) {
      this.pending = {
        cursor: batch.cursor,
        seen: (this.pending?.seen ?? 0) + batch.seen,
        cursorTime: batch.cursorTime,
        waiting: batch.waiting ?? null,
      };
      const wait = this.savedAt + (this.deps.cursorEveryMs ?? 1_000) - now;
      if (wait <= 0) await this.saveOnlyCursor();
      else if (!this.flushTimer) {
        this.flushTimer = setTimeout(() => {
          this.flushTimer = undefined;
          void this.enqueue(() => this.saveOnlyCursor()).catch((error: unknown) =>
            this.deps.log.warn({ err: error }, 'stream: cursor not saved; saved with the next batch'),
          );
        }, wait);
        this.flushTimer.unref();
      }
      return;
    }
    const { version, rules } = await activeRules(db);
    const officials = await ingest.officialIds(rules, version);
    if (version !== this.rulesVersion || now - this.loadedAt > (this.deps.interestEveryMs ?? 600_000))
      await this.loadInterest();
    // Beside the cursor, where the oldest like still waiting for its post was read: a start after a crash refills
    // the waiting room from there (StreamSource.read's `refill`).
    const result = await ingest.ingest(
      rules,
      officials,
      batch.events,
      batch.cursor,
      new Date(now),
      batch.waiting ?? null,
    );
    this.interest.add(result.followed, result.involved);
    // Stored: the likes the batch's posts released from the waiting room are counted (the source is suspended
    // while a batch is stored, so nothing released since is in it).
    this.interest.confirm();
    const seen = (this.pending?.seen ?? 0) + batch.seen;
    this.pending = null;
    this.saved(batch.cursor, {
      at: new Date(now),
      seen,
      stored: batch.events.length,
      cursorTime: batch.cursorTime,
    });
  }

  private async saveOnlyCursor(): Promise<void> {
    const pending = this.pending;
    if (!pending || !this.active) return;
    this.pending = null;
    const now = new Date(this.deps.clock.now());
    await saveCursor(this.deps.db, STREAM_JOB, pending.cursor, now, pending.waiting);
    this.saved(pending.cursor, { at: now, seen: pending.seen, stored: 0, cursorTime: pending.cursorTime });
  }

  private saved(cursor: StreamCursor, report: StreamProgressReport): void {
    this.stored = cursor;
    this.savedAt = report.at.getTime();
    this.deps.onProgress?.(report);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const waiter = this.waiters[i];
      if (waiter?.reached(cursor)) {
        this.waiters.splice(i, 1);
        waiter.resolve();
      }
    }
    // The operator's job state: the stream's last success, at most once a second.
    if (this.savedAt - this.recordedAt < 1_000) return;
    this.recordedAt = this.savedAt;
    void recordRun(this.deps.db, STREAM_JOB, {
      startedAt: report.at,
      finishedAt: report.at,
      error: null,
      calls: 0,
      nextRunAt: null,
      rateLimitResetAt: null,
    }).catch((error: unknown) => this.deps.log.error({ err: error }, 'stream: run not recorded'));
  }

  /** The programme's interest, from the database (officials and terms from the rules in force). */
  async loadInterest(): Promise<void> {
    const { db, ingest } = this.deps;
    this.interest.beginLoad();
    const { version, rules } = await activeRules(db);
    const officials = await ingest.officialIds(rules, version);
    const { tracked, people } = await readInterest(db);
    this.interest.load({ tracked, people, officials, names: programmeNamer(rules, officials) });
    this.rulesVersion = version;
    this.loadedAt = this.deps.clock.now();
  }

  /** Posts found outside the stream (a gap fill), stored by the stream's rules without a cursor. */
  readonly storeFound = async (events: readonly StreamEvent[]): Promise<number> => {
    const { version, rules } = await activeRules(this.deps.db);
    const officials = await this.deps.ingest.officialIds(rules, version);
    const result = await this.deps.ingest.ingest(
      rules,
      officials,
      events,
      null,
      new Date(this.deps.clock.now()),
    );
    this.interest.add(result.followed, result.involved);
    return result.tracked;
  };

  async record(error: string): Promise<void> {
    const now = new Date(this.deps.clock.now());
    await recordRun(this.deps.db, STREAM_JOB, {
      startedAt: now,
      finishedAt: now,
      error,
      calls: 0,
      nextRunAt: null,
      rateLimitResetAt: null,
    }).catch((failure: unknown) => this.deps.log.error({ err: failure }, 'stream: error not recorded'));
  }
}
