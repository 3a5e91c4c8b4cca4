import { ordinal } from '../../lib/text-order';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import { XApiError } from './x-errors';
import type { CallRecord, XEndpoint } from './x-http';
import { addUsage, usageSince, type UsageRow } from './x-budget.repository';

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const monthStart = (ms: number) => `${new Date(ms).toISOString().slice(0, 7)}-01`;

/** How long counted calls may wait in memory before they are written to the ledger. */
export const BUDGET_FLUSH_MS = 1_000;

type Pending = { day: string; endpoint: string; calls: number; reads: number; failures: number };

/**
 * The X budget ledger: every call and the reads it returned, per endpoint per UTC day, stored so an operator
 * sees what the programme costs. With a monthly read cap, calls are refused (XApiError kind 'budget') once the
 * month's reads reach it.
 *
 * Calls are counted in memory at once (the cap check reads that count) and written to the ledger together, at
 * most a second later, when the worker stops, or before the month is read: one upsert per endpoint and day for
 * a whole search run instead of one per call. A process killed in that second loses those lines of the
 * operator's report (X bills them anyway); the cap is then checked against the ledger again on restart.
 */
export class XBudget {
  private monthKey = '';
  private monthReads = 0;
  private readonly pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

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

  /** Hook for XHttp: counts the call, for the ledger's next write. */
  readonly afterCall = async (record: CallRecord): Promise<void> => {
    const now = this.now();
    await this.syncMonth();
    this.monthReads += record.reads;
    const day = utcDay(now);
    const key = `${day} ${record.endpoint}`;
    const line = this.pending.get(key) ?? { day, endpoint: record.endpoint, calls: 0, reads: 0, failures: 0 };
    line.calls += 1;
    line.reads += record.reads;
    line.failures += record.status >= 400 ? 1 : 0;
    this.pending.set(key, line);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush().catch(() => undefined), BUDGET_FLUSH_MS);
      this.timer.unref();
    }
  };

  /** Writes the counted calls to the ledger (the worker calls it when it stops). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = [...this.pending.values()];
    this.pending.clear();
    const write = this.flushing.then(async () => {
      if (lines.length === 0) return;
      try {
        await addUsage(this.db, lines, new Date(this.now()));
      } catch (failure) {
        // Not written: counted again with the next write.
        for (const l of lines) this.requeue(l);
        throw failure;
      }
    });
    this.flushing = write.catch(() => undefined);
    return write;
  }

  /** This month's lines, for the operator. */
  async thisMonth(): Promise<{ lines: UsageRow[]; reads: number; cap: number | undefined }> {
    await this.flush();
    const lines = await usageSince(this.db, monthStart(this.now()));
    return { lines, reads: lines.reduce((sum, l) => sum + l.reads, 0), cap: this.monthlyReadCap };
  }

  private requeue(line: Pending): void {
    const key = `${line.day} ${line.endpoint}`;
    const into = this.pending.get(key);
    if (!into) this.pending.set(key, { ...line });
    else {
      into.calls += line.calls;
      into.reads += line.reads;
      into.failures += line.failures;
    }
  }

  private async syncMonth(): Promise<void> {
    const key = monthStart(this.now());
    if (key === this.monthKey) return;
    const lines = await usageSince(this.db, key);
    let pendingReads = 0;
    for (const l of this.pending.values()) if (l.day >= key) pendingReads += l.reads;
    this.monthKey = key;
    this.monthReads = lines.reduce((sum, l) => sum + l.reads, 0) + pendingReads;
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
  const rows = [...byEndpoint].sort(([a], [b]) => ordinal(a, b));
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
