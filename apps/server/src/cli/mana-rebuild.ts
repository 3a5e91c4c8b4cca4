import { rebuildAllTotals } from '../modules/mana/totals.service';
import { activeRules } from '../modules/programme/programme.service';
import { withDatabase } from './with-database';

/**
 * `npm run mana:rebuild`: recomputes every author's post lines, totals and ranks from the stored posts. The
 * worker's incremental totals must give the same result; run it after changing the rules.
 */
await withDatabase(async (database) => {
  const { version, rules } = await activeRules(database.db);
  const started = Date.now();
  const authors = await rebuildAllTotals(database.db, rules, new Date());
  console.log(
    `Rebuilt the totals of ${authors} authors with rules v${version} in ${Date.now() - started} ms.`,
  );
});
