import type { Kysely } from 'kysely';
import type { Clock } from '../lib/clock';
import type { Database } from '../db/schema';
import { readState, recordRun, saveCursor } from '../modules/mana/ingest-state.repository';
import { activeRules } from '../modules/programme/programme.service';
import type { GapWindow, StreamCursor, StreamEvent, StreamSource } from '../social/stream-source';
import type { JobLog } from './job';

/** The ingest_state job that remembers a gap until it is filled (so a restart mid-fill fills it again). */
export const GAP_JOB = 'stream-gap';

type GapFillResult = { calls: number; found: number; tracked: number };

type Deps = {
  db: Kysely<Database>;
  source: StreamSource;
  log: JobLog;
  clock: Clock;
  /** Records an error of the stream job for the operator. */
  record: (message: string) => Promise<void>;
  /** Stores events found outside the stream by the stream's rules; returns how many posts it tracked. */
  store: (events: readonly StreamEvent[]) => Promise<number>;
};

/**
 * Gaps of the event stream: a stored cursor older than the source replays means events were lost for good. The
 * gap is logged and recorded (ingest_state, job `stream`); when the source can fill a gap (its network's search),
 * the window is remembered (job `stream-gap`, joined with one an earlier run did not finish) and filled beside the
 * stream, through the stream's own rules, so a post found twice is tracked once; it is forgotten once filled.
 * Without a fill, only known posts heal (the refresh job reads their counts), and the log says so.
 */
export class StreamGaps {
  private abort = new AbortController();
  /** The fill this start began (its result), or a settled promise. */
  filling: Promise<GapFillResult | null | void> = Promise.resolve();
  private active = false;

  constructor(private readonly deps: Deps) {}

  /** Reports a gap before `cursor` (if any) and starts filling it, or a window an earlier run left unfilled. */
  async check(cursor: StreamCursor, signal: AbortSignal): Promise<void> {
    const { source, clock, log } = this.deps;
    const now = clock.now();
    const at = cursor.time ? Date.parse(cursor.time) : NaN;
    const gap = now - at > source.replayWindowMs ? { since: new Date(at), until: new Date(now) } : null;
    if (gap) {
      const hours = source.replayWindowMs / 3_600_000;
      const seq = typeof cursor.seq === 'number' ? cursor.seq : '?';
      const message = `gap: the stream stopped at ${cursor.time} (seq ${seq}), older than the source replays (${source.name}: ${hours} h); events in between are lost, counts of known posts are reconciled by the refresh job; ${source.gapNote}`;
      log.error({ cursor }, `stream: ${message}`);
      await this.deps.record(message);
    }
    if (!source.gapFill || this.active || signal.aborted) return;
    const window = gap ?? (await this.pending());
    if (!window) return;
    this.abort = new AbortController();
    this.active = true;
    this.filling = this.fill(window, this.abort.signal)
      .catch((error: unknown) => log.error({ err: error }, 'stream: gap fill stopped'))
      .finally(() => {
        this.active = false;
      });
  }

  async stop(): Promise<void> {
    this.abort.abort();
    await this.filling;
  }

  /** A gap an earlier run did not finish, or null. */
  private async pending(): Promise<GapWindow | null> {
    const cursor = (await readState(this.deps.db, GAP_JOB))?.cursor as
      { since?: string; until?: string } | undefined;
    return cursor?.since && cursor.until
      ? { since: new Date(cursor.since), until: new Date(cursor.until) }
      : null;
  }

  /** Remembers the gap (joined with one not filled yet), fills it, and forgets it once filled. */
  private async fill(window: GapWindow, signal: AbortSignal): Promise<GapFillResult | null> {
    const { db, clock, log, source } = this.deps;
    if (!source.gapFill) return null;
    const earlier = await this.pending();
    const since = new Date(Math.min(window.since.getTime(), earlier?.since.getTime() ?? Infinity));
    const until = new Date(Math.max(window.until.getTime(), earlier?.until.getTime() ?? 0));
    const startedAt = new Date(clock.now());
    await saveCursor(db, GAP_JOB, { since: since.toISOString(), until: until.toISOString() }, startedAt);
    const report = { startedAt, calls: 0, nextRunAt: null, rateLimitResetAt: null };
    try {
      const { rules } = await activeRules(db);
      const result = await source.gapFill({ since, until }, rules, this.deps.store, signal);
      if (!result) return null; // stopped: the window stays for the next start
      await saveCursor(db, GAP_JOB, { filledThrough: until.toISOString() }, new Date(clock.now()));
      await recordRun(db, GAP_JOB, {
        ...report,
        calls: result.calls,
        finishedAt: new Date(clock.now()),
        error: null,
      });
      log.info({ since, until, ...result }, 'stream: gap filled');
      return result;
    } catch (error) {
      const message = `gap fill failed (${since.toISOString()} to ${until.toISOString()}), retried at the next start: ${error instanceof Error ? error.message : String(error)}`;
      log.error({ err: error, since, until }, `stream: ${message}`);
      await recordRun(db, GAP_JOB, { ...report, finishedAt: new Date(clock.now()), error: message }).catch(
        () => undefined,
      );
      return null;
    }
  }
}
