import path from 'node:path';
import type { Page } from 'playwright-core';
import { expectNoSeriousAxeFindings } from '../support/admin-console';
import { DEMO_ADMIN } from '../support/admin-console';
import { openConsoleSection } from './open-section';

/** The jobs as shown at this width: the table from 768 px, cards below. */
const jobsHeading = (page: Page) => page.getByRole('heading', { name: 'Jobs', level: 2 });

/**
 * On a signed-in console: Worker and network shows the jobs and the network's usage; "Run now" stores a request
 * the run-now list shows; pausing asks first, then the screen says who paused; resuming asks and runs again.
 */
export async function checkWorkerSection(page: Page, origin: string, width: number): Promise<void> {
  await page.goto(`${origin}/admin/announcements`, { waitUntil: 'networkidle' });
  await openConsoleSection(page, 'Worker and network');
  await jobsHeading(page).waitFor();
  await page.getByRole('heading', { name: /^Network: / }).waitFor();
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
  await expectNoSeriousAxeFindings(page, `worker paused at ${width}`);

  await page.getByRole('button', { name: 'Resume the worker' }).click();
  const resume = page.getByRole('dialog', { name: 'Resume the worker?' });
  await resume.getByRole('button', { name: 'Resume', exact: true }).click();
  await page.getByText('The worker resumed.').waitFor();
  await page.getByText(/Running: jobs run on their schedule/).waitFor();
}

/** Saves `admin-worker-<width>.png`: jobs, network usage and run-now requests. */
export async function screenshotWorkerSection(page: Page, origin: string, width: number, dir: string) {
  await page.goto(`${origin}/admin/worker`, { waitUntil: 'networkidle' });
  await jobsHeading(page).waitFor();
  await page.screenshot({ path: path.join(dir, `admin-worker-${width}.png`), fullPage: true });
}
