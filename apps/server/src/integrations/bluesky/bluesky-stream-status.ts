import type { NetworkUsage } from '@manaboard/contract/admin';
import type { Db } from '../../db/schema';
import { readState } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-ingest.service';
import type { StreamCursor } from './bluesky-stream';

/**
 * The console's usage panel for Bluesky, from the stream's stored cursor (ingest_state, job `stream`): the
 * commit time of the last event stored and how far behind now it is. Reconnects are counted in the worker
 * process's metrics, not stored, so the console reports them as unknown (null).
 */
export async function blueskyStreamStatus(db: Db, now: Date): Promise<NetworkUsage> {
  const state = await readState(db, STREAM_JOB);
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
