import path from 'node:path';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeFindings } from '../support/admin-console';
import { DEMO_ADMIN } from '../support/admin-console';
import { openConsoleSection } from './open-section';

/** The jobs as shown at this width: the table from 1024 px, cards below. */
const jobsHeading = (page: Page) => page.getByRole('heading', { name: 'Jobs', level: 2 });

/** The demo runs on X: every job of X's schedule is listed, each with a next run (or "paused"). */
const X_JOBS = ['search', 'refresh', 'interactions', 'settle', 'totals', 'fairness', 'ledger'];

/** The Next run of each job as shown at this width (the table from 1024 px, the cards below). */
async function nextRuns(page: Page, width: number): Promise<string[]> {
  if (width >= 1024) {
    const rows = page.getByRole('table', { name: /^Jobs:/ }).locator('tbody tr');
    return rows.evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[1]?.textContent ?? ''));
  }
  const cards = page.getByRole('list', { name: 'Jobs' }).locator('dt:text-is("Next run") + dd');
  return cards.allTextContents();
}

async function expectJobList(page: Page, width: number, paused: boolean): Promise<void> {
  const scope =
    width >= 1024 ? page.getByRole('table', { name: /^Jobs:/ }) : page.getByRole('list', { name: 'Jobs' });
  await scope.waitFor();
  // Each job's name leads its row header (table) or card heading, its schedule after it.
  const names = await scope.locator(width >= 1024 ? 'tbody th' : 'h3').allTextContents();
  const listed = names.map((text) => /^[a-z]+/.exec(text.trim())?.[0] ?? text);
  if (listed.join() !== X_JOBS.join()) throw new Error(`jobs listed at ${width}: ${listed.join(', ')}`);
  // Every job that runs on request has its button: interactions and settle included.
  for (const job of X_JOBS.filter((j) => j !== 'fairness')) {
    await scope.getByRole('button', { name: `Run now ${job}` }).waitFor();
  }
  const next = await nextRuns(page, width);
  if (next.length !== X_JOBS.length)
    throw new Error(`${next.length} jobs listed at ${width}: ${next.join(', ')}`);
  const wrong = next.filter((text) => (paused ? text !== 'paused' : !/UTC$/.test(text)));
  if (wrong.length > 0) throw new Error(`next runs at ${width} (paused: ${paused}): ${next.join(', ')}`);
}

/**
 * On a signed-in console: Worker and network shows the jobs and the network's usage; "Run now" stores a request
 * the run-now list shows; pausing asks first, then the screen says who paused; resuming asks and runs again.
 */
export async function checkWorkerSection(page: Page, origin: string, width: number): Promise<void> {
  await page.goto(`${origin}/admin/announcements`, { waitUntil: 'networkidle' });
  await openConsoleSection(page, 'Worker and network');
  await jobsHeading(page).waitFor();
  await page.getByRole('heading', { name: /^Network: / }).waitFor();
  await expectJobList(page, width, false);
  await expectNoSeriousAxeFindings(page, `worker at ${width}`);

  const run = page.getByRole('button', { name: /^Run now / }).first();
  const job = ((await run.getAttribute('aria-label')) ?? '').replace(/^Run now /, '');
  await run.click();
  await page.getByText(`Asked the worker to run ${job} now; it picks it up within seconds.`).waitFor();
  await page
    .getByRole('list', { name: 'Recent run-now requests' })
    .getByRole('listitem')
    .filter({ hasText: `asked by admin:@${DEMO_ADMIN}` })
    .filter({ hasText: job })
    .first()
    .waitFor();

  await page.getByRole('button', { name: 'Pause the worker' }).click();
  const pause = page.getByRole('dialog', { name: 'Pause the worker?' });
  await pause.waitFor();
  await expectNoSeriousAxeFindings(page, `worker pause dialog at ${width}`);
  await pause.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByText('The worker is paused.').waitFor();
  await page.getByText(new RegExp(`Paused by admin:@${DEMO_ADMIN}`)).waitFor();
  await expectJobList(page, width, true);
  await expectNoSeriousAxeFindings(page, `worker paused at ${width}`);

  await page.getByRole('button', { name: 'Resume the worker' }).click();
  const resume = page.getByRole('dialog', { name: 'Resume the worker?' });
  await resume.getByRole('button', { name: 'Resume', exact: true }).click();
  await page.getByText('The worker resumed.').waitFor();
  await page.getByText(/Running: jobs run on their schedule/).waitFor();
  await expectJobList(page, width, false);
}

/** Saves `admin-worker-<width>.png`: jobs, network usage and run-now requests. */
export async function screenshotWorkerSection(page: Page, origin: string, width: number, dir: string) {
  await page.goto(`${origin}/admin/worker`, { waitUntil: 'networkidle' });
  await jobsHeading(page).waitFor();
  await page.screenshot({ path: path.join(dir, `admin-worker-${width}.png`), fullPage: true });
}
