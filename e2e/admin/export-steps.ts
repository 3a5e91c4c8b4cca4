import path from 'node:path';
import type { Page } from 'playwright-core';
import { manaResponseSchema } from '@manaboard/contract';
import { expect } from 'vitest';
import { expectNoSeriousAxeFindings } from '../support/admin-console';
import { openConsoleSection } from './open-section';

type Line = { rank: number; handle: string; id: string; mana: number };

/** The first `n` lines as the operator sees them: table cells from 768 px, cards below. */
async function shownLines(page: Page, width: number, n: number): Promise<Line[]> {
  if (width >= 768) {
    const rows = page.getByRole('table').locator('tbody tr');
    const count = Math.min(n, await rows.count());
    const lines: Line[] = [];
    for (let i = 0; i < count; i++) {
      const cells = await rows.nth(i).locator('td, th').allTextContents();
      lines.push({
        rank: Number(cells[0]),
        handle: (cells[1] ?? '').replace(/^@/, ''),
        id: cells[2] ?? '',
        mana: Number((cells[3] ?? '').replaceAll(',', '')),
      });
    }
    return lines;
  }
  const cards = page.getByRole('list', { name: /^Rewards export, / }).getByRole('listitem');
  const count = Math.min(n, await cards.count());
  const lines: Line[] = [];
  for (let i = 0; i < count; i++) {
    const card = cards.nth(i);
    const [who = '', mana = ''] = await card.locator('p').first().locator(':scope > span').allTextContents();
    const match = /^#(\d+) @(\S+)$/.exec(who.trim());
    if (!match) throw new Error(`unexpected export card: ${who}`);
    lines.push({
      rank: Number(match[1]),
      handle: match[2] ?? '',
      id: (await card.locator('p').nth(1).textContent()) ?? '',
      mana: Number(mana.replace(/ Mana$/, '').replaceAll(',', '')),
    });
  }
  return lines;
}

/** The public leaderboard's all-time top `n`, as `GET /api/mana` answers anyone. */
async function publicTop(origin: string, n: number): Promise<Line[]> {
  const body = manaResponseSchema.parse(await (await fetch(`${origin}/api/mana?limit=${n}`)).json());
  return body.data.authors.map((a) => ({
    rank: a.rank,
    handle: a.authorName,
    id: a.authorId,
    mana: a.totalMana,
  }));
}

/**
 * On a signed-in console: Rewards export opens on last week (rows or the empty state); all time shows the same
 * first ranks, handles, ids and Mana as the public leaderboard; the CSV downloads under the period's name.
 */
export async function checkExportSection(page: Page, origin: string, width: number): Promise<void> {
  await page.goto(`${origin}/admin/announcements`, { waitUntil: 'networkidle' });
  await openConsoleSection(page, 'Rewards export');
  const period = page.getByLabel('Period');
  const lastWeek = await period.inputValue();
  expect(lastWeek).toMatch(/^\d{4}-W\d{2}$/);
  await expect.poll(() => period.locator('option:checked').textContent()).toContain('last week');
  await page
    .getByRole('table')
    .or(page.getByRole('list', { name: /^Rewards export, / }))
    .or(page.getByText(`No member earned Mana in week ${lastWeek}.`))
    .first()
    .waitFor();
  await expectNoSeriousAxeFindings(page, `export last week at ${width}`);

  await period.selectOption('all');
  await page.getByText(/^All time\. Generated/).waitFor();
  const n = 5;
  // The worker may settle Mana between the two reads: compare again after a reload before calling it a mismatch.
  let shown: Line[] = [];
  let expected: Line[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    expected = await publicTop(origin, n);
    shown = await shownLines(page, width, n);
    if (JSON.stringify(shown) === JSON.stringify(expected)) break;
    await page.getByLabel('Period').selectOption(lastWeek);
    await page.getByLabel('Period').selectOption('all');
    await page.getByText(/^All time\. Generated/).waitFor();
  }
  expect(expected.length).toBeGreaterThan(0);
  expect(shown).toEqual(expected);
  await expectNoSeriousAxeFindings(page, `export all time at ${width}`);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  expect((await download).suggestedFilename()).toBe('manaboard-rewards-all.csv');
  await page.getByText('Downloaded the export of all time.').waitFor();
}

/** Saves `admin-export-<width>.png`: the all-time export (the demo world's last week may be empty), one screen of it. */
export async function screenshotExportSection(page: Page, origin: string, width: number, dir: string) {
  await page.goto(`${origin}/admin/export`, { waitUntil: 'networkidle' });
  await page.getByLabel('Period').selectOption('all');
  await page.getByText(/^All time\. Generated/).waitFor();
  await page.screenshot({ path: path.join(dir, `admin-export-${width}.png`) });
}
