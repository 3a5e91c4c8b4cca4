import type { Db } from '../../db/schema';
import { catchUpOf, type CatchUp, type StoredTenth } from './stream-catch-up';
import { newestProgress, storedCursorTime } from './stream-progress.repository';

/**
 * How an event stream stands, as the metrics, /readyz and the console show it: how far behind the newest event
 * stored is (now minus that event's network time: it keeps growing when the consumer stalls or, on a quiet
 * network, when nothing happens), how fast events are read and stored, and how much of the source's replay
 * window is left before a stopped or slow consumer loses events for good.
 */
export type StreamReading = {
  /** The stream's name (the progress row's `source`, e.g. the network's). */
  source: string;
  cursorTime: Date | null;
  lagSeconds: number | null;
  /** Null when no fresh report (the leader stopped reporting for PROGRESS_STALE_MS). */
  seenPerSecond: number | null;
  storedPerSecond: number | null;
  replayWindowSeconds: number | null;
  replayWindowLeftSeconds: number | null;
  reportedAt: Date | null;
  /** Stored events per second per complete tenth of a minute of the last two, oldest first (empty: no fresh report). */
  storedTenths: StoredTenth[];
  /** Whether and when the stream catches up at the cursor's current gain (unknown without a fresh report). */
  catchUp: CatchUp;
  /** Events read and stored since this process's reporter started (only in the reporting worker). */
  totals?: { seen: number; stored: number };
};

/** A progress row older than this says nothing about the current rate: its writer stopped. */
export const PROGRESS_STALE_MS = 30_000;

const round = (n: number) => Math.round(n * 10) / 10;

/** The reading of a progress snapshot at `now`. */
export function readingOf(
  progress: {
    source: string;
    cursorTime: Date | null;
    seenPerSecond: number;
    storedPerSecond: number;
    replayWindowSeconds: number | null;
    reportedAt: Date;
    storedTenths?: StoredTenth[] | null;
    cursorGain?: number | null;
  },
  now: Date,
  maxLagSeconds = 0,
): StreamReading {
  const lag = progress.cursorTime
    ? Math.max(0, (now.getTime() - progress.cursorTime.getTime()) / 1000)
    : null;
  const fresh = now.getTime() - progress.reportedAt.getTime() <= PROGRESS_STALE_MS;
  const window = progress.replayWindowSeconds;
  return {
    source: progress.source,
    cursorTime: progress.cursorTime,
    lagSeconds: lag === null ? null : round(lag),
    seenPerSecond: fresh ? round(progress.seenPerSecond) : null,
    storedPerSecond: fresh ? round(progress.storedPerSecond) : null,
    replayWindowSeconds: window,
    replayWindowLeftSeconds: window === null || lag === null ? null : Math.max(0, Math.floor(window - lag)),
    reportedAt: progress.reportedAt,
    storedTenths: fresh ? (progress.storedTenths ?? []) : [],
    catchUp: catchUpOf(
      lag === null ? null : round(lag),
      maxLagSeconds,
      fresh ? (progress.cursorGain ?? null) : null,
    ),
  };
}

/**
 * The stream's reading from the row the leading worker stores (any process may ask); null before any. Within
 * `maxLagSeconds` (READY_STREAM_MAX_LAG_SECONDS) the stream counts as caught up. The lag is of the stored cursor
 * itself (ingest_state, written with every batch) when it is newer than the row's: the row is written every few
 * seconds, so after a restart (before the new worker's first report) it could lag the stored cursor by as much
 * network time as a backlog reads in those seconds, and the lag seemed to go back (the faults bench's `kill`: 31 s).
 */
export async function storedStreamReading(
  db: Db,
  now: Date,
  maxLagSeconds = 0,
): Promise<StreamReading | null> {
  const [row, cursorTime] = await Promise.all([newestProgress(db), storedCursorTime(db)]);
  if (!row) return null;
  const newest =
    cursorTime && (!row.cursor_time || cursorTime.getTime() > row.cursor_time.getTime())
      ? cursorTime
      : row.cursor_time;
  return readingOf(
    {
      source: row.source,
      cursorTime: newest,
      seenPerSecond: row.seen_per_second,
      storedPerSecond: row.stored_per_second,
      replayWindowSeconds: row.replay_window_seconds,
      reportedAt: row.reported_at,
      storedTenths: row.stored_tenths,
      cursorGain: row.cursor_gain,
    },
    now,
    maxLagSeconds,
  );
}
