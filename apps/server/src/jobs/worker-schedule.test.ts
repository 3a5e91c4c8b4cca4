import { afterEach, describe, expect, it } from 'vitest';
import { workerSchedule } from './worker-schedule';

describe('workerSchedule', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('reads the patterns in UTC whatever the machine’s time zone (half an hour off UTC here)', () => {
    process.env.TZ = 'Asia/Kolkata';
    expect(new Date('2026-11-28T10:00:00Z').getTimezoneOffset()).toBe(-330);
    const next = Object.fromEntries(
      workerSchedule({ jobs: ['search', 'settle', 'trace', 'fairness', 'totals', 'ledger'] }).map((job) => [
        job.job,
        job.nextRunAt(new Date('2026-11-28T10:00:30.500Z'), null).toISOString(),
      ]),
    );
    expect(next).toEqual({
      search: '2026-11-28T10:01:00.000Z',
      settle: '2026-11-28T10:07:00.000Z',
      trace: '2026-11-28T10:05:00.000Z',
      fairness: '2026-11-28T10:41:00.000Z',
      totals: '2026-11-28T10:01:20.000Z',
      ledger: '2026-11-28T10:10:00.000Z',
    });
  });

  it('runs a job every N seconds in place of the patterns', () => {
    const [search] = workerSchedule({ jobs: ['search'], intervalSeconds: 30 });
    expect(search?.schedule).toBe('every 30 s');
    const now = new Date('2026-11-28T10:00:30.500Z');
    expect(search?.nextRunAt(now, null).toISOString()).toBe('2026-11-28T10:00:31.000Z');
    expect(search?.nextRunAt(now, new Date('2026-11-28T10:00:20Z')).toISOString()).toBe(
      '2026-11-28T10:00:50.000Z',
    );
  });
});
