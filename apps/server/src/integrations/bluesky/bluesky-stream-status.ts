import type { NetworkUsage, StreamCatchUp } from '@manaboard/contract/admin';
import type { StreamCursor } from '../../social/stream-source';
import { RELAY_REPLAY_MS } from './bluesky-facts';

const iso = (at: Date | null | undefined) => at?.toISOString() ?? null;

/** What the leading worker last reported of its stream (the engine's progress row), as the panel reads it. */
export type StreamProgressSnapshot = {
  cursorTime: Date | null;
  seenPerSecond: number | null;
  storedPerSecond: number | null;
  replayWindowSeconds: number | null;
  reportedAt: Date | null;
  /** Stored events/s per complete tenth of a minute, oldest first (empty: no fresh report). */
  storedTenths: Array<{ at: string; perSecond: number }>;
};

/** The time left to catch up at a lag, at the stream's current gain (the engine's arithmetic, bound by the root). */
export type CatchUpAt = (lagSeconds: number | null) => StreamCatchUp;

/**
 * The console's usage panel for Bluesky, from what the engine stored (the composition root reads it): the lag from
 * the newest event stored (the stream's cursor, or the leader's progress row when that is newer), the read and
 * store rates and the relay's replay window left from the progress row the leading worker writes every few
 * seconds, with the stored events per tenth of a minute and the time left to catch up. Reconnects are counted in the worker process's metrics, not stored, so they are unknown (null) here.
 */
export function blueskyStreamStatus(
  state: { cursor: unknown; last_error: string | null } | undefined,
  progress: StreamProgressSnapshot | null,
  now: Date,
  maxLagSeconds: number,
  catchUpAt: CatchUpAt,
): NetworkUsage {
  const cursor = (state?.cursor ?? {}) as StreamCursor;
  const times = [cursor.time ? new Date(cursor.time) : null, progress?.cursorTime ?? null].filter(
    (t): t is Date => t !== null && !Number.isNaN(t.getTime()),
  );
  const lastEventAt = times.length > 0 ? new Date(Math.max(...times.map((t) => t.getTime()))) : null;
  const lagSeconds = lastEventAt
    ? Math.max(0, Math.round((now.getTime() - lastEventAt.getTime()) / 1000))
    : null;
  // The worker stores the window it was given; before its first report, the relay's as this adapter assumes it.
  const window = progress?.replayWindowSeconds ?? RELAY_REPLAY_MS / 1000;
  return {
    kind: 'stream',
    network: 'bluesky',
    lastEventAt: iso(lastEventAt),
    lagSeconds,
    lagBoundSeconds: maxLagSeconds > 0 ? maxLagSeconds : null,
    seenPerSecond: progress?.seenPerSecond ?? null,
    storedPerSecond: progress?.storedPerSecond ?? null,
    replayWindowSeconds: window,
    replayWindowLeftSeconds: window === null || lagSeconds === null ? null : Math.max(0, window - lagSeconds),
    progressAt: iso(progress?.reportedAt),
    storedPerTenth: progress?.storedTenths ?? [],
    // The lag here may be newer than the row's (the stream's own cursor), so the catch-up is figured from it.
    catchUp: catchUpAt(lagSeconds),
    reconnects: null,
    lastError: state?.last_error ?? null,
  };
}
