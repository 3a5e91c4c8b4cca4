import type { NetworkUsage } from '@manaboard/contract/admin';
import type { StreamCursor } from '../../social/stream-source';

/**
 * The console's usage panel for Bluesky, from the stream's stored state (the engine's ingest_state row of the
 * stream job): the commit time of the last event stored and how far behind now it is. Reconnects are counted in the
 * worker process's metrics, not stored, so the console reports them as unknown (null).
 */
export function blueskyStreamStatus(
  state: { cursor: unknown; last_error: string | null } | undefined,
  now: Date,
): NetworkUsage {
  const cursor = (state?.cursor ?? {}) as StreamCursor;
  const lastEventAt = cursor.time ? new Date(cursor.time) : null;
  return {
    kind: 'stream',
    network: 'bluesky',
    lastEventAt: lastEventAt?.toISOString() ?? null,
    lagSeconds: lastEventAt ? Math.max(0, Math.round((now.getTime() - lastEventAt.getTime()) / 1000)) : null,
    reconnects: null,
    lastError: state?.last_error ?? null,
  };
}
