import type { Kysely } from 'kysely';
import type { Database, Db } from '../../db/schema';
import { readState, saveCursor } from './ingest-state.repository';

/**
 * Where the demo stands: the anchor its world was built from, how far its simulated clock has got, and the base
 * URL its avatar links were given under (unknown for a demo started before it was kept).
 */
export type DemoState = { anchor: number; simulatedAt: number | null; avatarBase?: string };

/**
 * The demo's state, created on the first start: the anchor is kept so a restart rebuilds the same world (ids
 * are snowflakes of creation times) and resumes from where the clock was.
 */
export async function demoState(db: Kysely<Database>, now: number): Promise<DemoState> {
  const stored = (await readState(db, 'demo'))?.cursor;
  if (stored && typeof stored.anchor === 'number') {
    return {
      anchor: stored.anchor,
      simulatedAt: typeof stored.simulatedAt === 'number' ? stored.simulatedAt : null,
      ...(typeof stored.avatarBase === 'string' ? { avatarBase: stored.avatarBase } : {}),
    };
  }
  const fresh = { anchor: now, simulatedAt: null };
  await saveCursor(db, 'demo', fresh, new Date(now));
  return fresh;
}

/** Records how far the demo's clock has got. */
export async function saveDemoProgress(db: Db, state: DemoState, now = new Date()): Promise<void> {
  await saveCursor(db, 'demo', state, now);
}
