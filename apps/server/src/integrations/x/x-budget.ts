import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { XApiError } from './x-errors';
import type { CallRecord, XEndpoint } from './x-http';
import { addUsage, usageSince, type UsageRow } from './x-budget.repository';

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthStart = (ms: number) => `${new Date(ms).toISOString().slice(0, 7)}-01`;

/**
 * The X budget ledger: every call and the reads it returned, per endpoint per UTC day, stored so an operator
 * sees what the programme costs. With a monthly read cap, calls are refused (XApiError kind 'budget') once the
 * month's reads reach it.
 */
export class XBudget {
  private monthKey = '';
  private monthReads = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly monthlyReadCap: number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  /** Hook for XHttp: refuses a call when the month's cap is spent. */
  readonly beforeCall = async (endpoint: XEndpoint): Promise<void> => {
    if (this.monthlyReadCap === undefined) return;
    await this.syncMonth();
    if (this.monthReads >= this.monthlyReadCap) {
      throw new XApiError(
        endpoint,
        0,
        `monthly read cap of ${this.monthlyReadCap} reached (X_MONTHLY_READ_CAP); calls resume next month`,
        'budget',
      );
    }
  };

  /** Hook for XHttp: writes the call to the ledger. */
  readonly afterCall = async (record: CallRecord): Promise<void> => {
    const now = this.now();
    await this.syncMonth();
    this.monthReads += record.reads;
    await addUsage(this.db, {
      day: utcDay(now),
      endpoint: record.endpoint,
      reads: record.reads,
      failed: record.status >= 400,
      now: new Date(now),
    });
  };

  /** This month's lines, for the operator. */
  async thisMonth(): Promise<{ lines: UsageRow[]; reads: number; cap: number | undefined }> {
    const lines = await usageSince(this.db, monthStart(this.now()));
    return { lines, reads: lines.reduce((sum, l) => sum + l.reads, 0), cap: this.monthlyReadCap };
  }

  private async syncMonth(): Promise<void> {
    const key = monthStart(this.now());
    if (key === this.monthKey) return;
    const lines = await usageSince(this.db, key);
    this.monthKey = key;
    this.monthReads = lines.reduce((sum, l) => sum + l.reads, 0);
  }
}

/** The month's X usage as the operator reads it: one line per endpoint, then the total against the cap. */
export function formatUsageReport(month: {
  lines: UsageRow[];
  reads: number;
  cap: number | undefined;
}): string {
  const byEndpoint = new Map<string, { calls: number; reads: number; failures: number }>();
  for (const line of month.lines) {
    const sum = byEndpoint.get(line.endpoint) ?? { calls: 0, reads: 0, failures: 0 };
    sum.calls += line.calls;
    sum.reads += line.reads;
    sum.failures += line.failures;
    byEndpoint.set(line.endpoint, sum);
  }
  const rows = [...byEndpoint].sort(([a], [b]) => a.localeCompare(b));
  const body = rows.map(
    ([endpoint, s]) => `  ${endpoint.padEnd(20)} ${s.calls} calls, ${s.reads} reads, ${s.failures} failed`,
  );
  const cap =
    month.cap === undefined ? '(no monthly cap: X_MONTHLY_READ_CAP is unset)' : `of a cap of ${month.cap}`;
  return [
    'X usage this month (UTC):',
    ...(body.length > 0 ? body : ['  no calls yet']),
    `  total: ${month.reads} reads ${cap}`,
  ].join('\n');
}
