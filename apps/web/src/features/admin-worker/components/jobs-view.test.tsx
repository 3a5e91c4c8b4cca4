import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { WorkerStatus } from '@manaboard/contract/admin';
import { JobsView } from './jobs-view';

type Job = WorkerStatus['jobs'][number];

const job = (name: string, schedule: string, nextRunAt: string | null): Job => ({
  job: name,
  schedule,
  lastRunAt: name === 'totals' ? '2026-11-22T10:00:20.000Z' : null,
  lastSuccessAt: null,
  nextRunAt,
  lastDurationMs: null,
  lastError: null,
  lastErrorAt: null,
  items: {},
  callsSpent: 0,
  rateLimitResetAt: null,
});

/** X's schedule as the API lists it right after start: every job, none run yet but totals. */
const xJobs: Job[] = [
  job('search', '*/1 * * * *', '2026-11-22T10:01:00.000Z'),
  job('refresh', '*/15 * * * *', '2026-11-22T10:15:00.000Z'),
  job('interactions', '*/15 * * * *', '2026-11-22T10:15:00.000Z'),
  job('settle', '7 * * * *', '2026-11-22T10:07:00.000Z'),
  job('totals', '20 * * * * *', '2026-11-22T10:01:20.000Z'),
  job('fairness', '41 * * * *', '2026-11-22T10:41:00.000Z'),
];

// jsdom has no layout: the phone cards and the desktop table are both in the document. Read the table.
const jobsTable = () => screen.getByRole('table', { name: /^Jobs:/ });
const rows = () => within(jobsTable()).getAllByRole('row').slice(1);
/** Next run is the second data cell (after the last run). */
const nextRuns = () => rows().map((r) => r.querySelectorAll('td')[1]?.textContent);

describe('the job list', () => {
  it('lists every job with its schedule and next run; every job the API runs on request has Run now', () => {
    const asked: string[] = [];
    render(<JobsView jobs={xJobs} running={false} paused={false} onRun={(name) => asked.push(name)} />);
    expect(rows().map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'search*/1 * * * *',
      'refresh*/15 * * * *',
      'interactions*/15 * * * *',
      'settle7 * * * *',
      'totals20 * * * * *',
      'fairness41 * * * *',
    ]);
    expect(nextRuns()).toEqual([
      '22 Nov 2026, 10:01:00 UTC',
      '22 Nov 2026, 10:15:00 UTC',
      '22 Nov 2026, 10:15:00 UTC',
      '22 Nov 2026, 10:07:00 UTC',
      '22 Nov 2026, 10:01:20 UTC',
      '22 Nov 2026, 10:41:00 UTC',
    ]);
    for (const name of ['interactions', 'settle']) {
      fireEvent.click(within(jobsTable()).getByRole('button', { name: `Run now ${name}` }));
    }
    expect(asked).toEqual(['interactions', 'settle']);
    // Fairness is not one the API runs on request: it says so instead of offering a button.
    expect(within(jobsTable()).queryByRole('button', { name: 'Run now fairness' })).toBeNull();
    expect(rows()[5]?.textContent).toContain('on its schedule');
    // The phone cards show the same: a card per job, with its next run.
    const cards = screen.getByRole('list', { name: 'Jobs' });
    expect(within(cards).getAllByRole('listitem')).toHaveLength(6);
    expect(within(cards).getByRole('heading', { name: 'settle 7 * * * *' })).toBeTruthy();
  });

  it('shows "paused" as every next run while the worker is paused, in the table and on the cards', () => {
    const paused = xJobs.map((j) => ({ ...j, nextRunAt: null }));
    render(<JobsView jobs={paused} running={false} paused onRun={() => undefined} />);
    expect(nextRuns()).toEqual(Array(6).fill('paused'));
    const cards = screen.getByRole('list', { name: 'Jobs' });
    expect(within(cards).getAllByText('paused')).toHaveLength(6);
    // The last run stays.
    expect(rows()[4]?.textContent).toContain('22 Nov 2026, 10:00:20 UTC');
  });

  it('says so when the network schedules no job', () => {
    render(<JobsView jobs={[]} running={false} paused={false} onRun={() => undefined} />);
    expect(screen.getByText('No job is scheduled on this network.')).toBeTruthy();
  });
});
