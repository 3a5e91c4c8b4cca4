import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { readState, saveCursor } from './ingest-state.repository';
import { bumpTotalsStamp } from './totals.repository';

/**
 * Where the demo stands: the anchor its world was built from, how far its simulated clock has got, and the base
 * URL its simulated X served from (unknown for a demo started before it was kept).
 */
export type DemoState = { anchor: number; simulatedAt: number | null; simulatedXBase?: string };

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
      ...(typeof stored.simulatedXBase === 'string' ? { simulatedXBase: stored.simulatedXBase } : {}),
    };
  }
  const fresh = { anchor: now, simulatedAt: null };
  await saveCursor(db, 'demo', fresh, new Date(now));
  return fresh;
}

/** Records how far the demo's clock has got. */
export async function saveDemoProgress(db: Kysely<Database>, state: DemoState): Promise<void> {
  await saveCursor(db, 'demo', state, new Date());
}

/**
 * Follows the demo to the origin it is served from now. The simulated X gives avatar links as absolute URLs under
 * the public origin (so the page's CSP allows them as 'self'), and authors and members keep them as given; after a
 * change of PORT or PUBLIC_ORIGIN those links name an origin nothing answers on, and the browser refuses them. So
 * the links under the previous base are moved to the new one (and the leaderboard's cached pages dropped), once.
 */
export async function demoOnSimulatedXBase(
  db: Kysely<Database>,
  state: DemoState,
  simulatedXBase: string,
  now: Date,
): Promise<DemoState> {
  if (state.simulatedXBase === simulatedXBase) return state;
  const moved = { ...state, simulatedXBase };
  const previous = state.simulatedXBase;
  await db.transaction().execute(async (trx) => {
    if (previous !== undefined) {
      const rebased = sql<string>`${simulatedXBase} || substr(avatar_url, ${previous.length + 1})`;
      const underPrevious = sql<boolean>`starts_with(avatar_url, ${`${previous}/`})`;
      await trx.updateTable('authors').set({ avatar_url: rebased }).where(underPrevious).execute();
      await trx.updateTable('accounts').set({ avatar_url: rebased }).where(underPrevious).execute();
      await bumpTotalsStamp(trx, now);
    }
    await saveCursor(trx, 'demo', moved, now);
  });
  return moved;
}
