import { loadConfig } from '../config/config';
import { formatUsageReport, XBudget } from '../integrations/x/x-budget';
import { withDatabase } from './with-database';

/** `npm run x:usage`: what the programme spent on X this month, per endpoint, against the read cap. */
await withDatabase(async (database) => {
  const budget = new XBudget(database.db, loadConfig().x.monthlyReadCap);
  console.log(formatUsageReport(await budget.thisMonth()));
});
