import type { NetworkUsage } from '@manaboard/contract/admin';
import type { Db } from '../../db/schema';
import { usageSince } from './x-budget.repository';

/** X's pay-per-use price of a post read (NOTES, 2026: about $0.005); X_PRICE_PER_READ_USD overrides it. */
export const DEFAULT_X_PRICE_PER_READ_USD = 0.005;

const cents = (usd: number) => Math.round(usd * 10_000) / 10_000;

/**
 * The console's usage panel for X, from the budget ledger (x_api_usage): calls, reads and failures per endpoint
 * today and this UTC month, the month's reads against X_MONTHLY_READ_CAP, and the estimated cost at the
 * configured price per read.
 */
export async function xUsageStatus(
  db: Db,
  now: Date,
  config: { monthlyReadCap: number | undefined; pricePerReadUsd: number | undefined },
): Promise<NetworkUsage> {
  const today = now.toISOString().slice(0, 10);
  const lines = await usageSince(db, `${today.slice(0, 7)}-01`);
  const zero = () => ({ calls: 0, reads: 0, failures: 0 });
  const byEndpoint = new Map<string, { today: ReturnType<typeof zero>; month: ReturnType<typeof zero> }>();
  for (const line of lines) {
    const entry = byEndpoint.get(line.endpoint) ?? { today: zero(), month: zero() };
    for (const bucket of line.day === today ? [entry.today, entry.month] : [entry.month]) {
      bucket.calls += line.calls;
      bucket.reads += line.reads;
      bucket.failures += line.failures;
    }
    byEndpoint.set(line.endpoint, entry);
  }
  const endpoints = [...byEndpoint].map(([endpoint, usage]) => ({ endpoint, ...usage }));
  const price = config.pricePerReadUsd ?? DEFAULT_X_PRICE_PER_READ_USD;
  const monthReads = endpoints.reduce((sum, e) => sum + e.month.reads, 0);
  const todayReads = endpoints.reduce((sum, e) => sum + e.today.reads, 0);
  return {
    kind: 'calls',
    network: 'x',
    endpoints,
    monthReads,
    monthlyReadCap: config.monthlyReadCap ?? null,
    pricePerReadUsd: price,
    monthCostUsd: cents(monthReads * price),
    todayCostUsd: cents(todayReads * price),
  };
}
