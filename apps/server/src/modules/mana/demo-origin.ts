import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { saveDemoProgress, type DemoState } from './demo-state.service';
import { bumpTotalsStamp } from './totals.repository';

/**
 * Follows the demo to the origin it is served from now. The simulated X gives avatar links as absolute URLs under
 * the public origin (so the page's CSP allows them as 'self'), and authors and members keep them as given; after a
 * change of PORT or PUBLIC_ORIGIN those links name an origin nothing answers on, and the browser refuses them. So
 * the links under the previous base are moved to the new one (and the leaderboard's cached pages dropped), once.
 */
export async function followDemoOrigin(
  db: Kysely<Database>,
  state: DemoState,
  demoBase: string,
  now: Date,
): Promise<DemoState> {
  if (state.avatarBase === demoBase) return state;
  const moved = { ...state, avatarBase: demoBase };
  const previous = state.avatarBase;
  await db.transaction().execute(async (trx) => {
    if (previous !== undefined) {
      const rebased = sql<string>`${demoBase} || substr(avatar_url, ${previous.length + 1})`;
      const underPrevious = sql<boolean>`starts_with(avatar_url, ${`${previous}/`})`;
      await trx.updateTable('authors').set({ avatar_url: rebased }).where(underPrevious).execute();
      await trx.updateTable('accounts').set({ avatar_url: rebased }).where(underPrevious).execute();
      await bumpTotalsStamp(trx, now);
    }
    await saveDemoProgress(trx, moved, now);
  });
  return moved;
}
