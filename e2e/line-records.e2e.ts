import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasChromium } from './support/chromium';
import { useBrowserFile } from './support/harness';
import { watchPageErrors } from './support/page-errors';
import { DIALOG, breakdownNumbers, expectAccessible, rows, screenshots, widths } from './leaderboard-steps';

/**
 * Issue 30 in the browser, on the demo (the simulated X): a member opens a post line of the breakdown and sees the
 * records behind it. X names no record behind a count, so the line says how many of its points are not
 * traceable; the disclosure is a real button (aria-expanded, keyboard), the panel a labelled region.
 */
describe.skipIf(!hasChromium)("a breakdown line's records in the browser (demo world)", () => {
  const file = useBrowserFile();

  it('opens the records of a post line by keyboard at every width, with its not-traceable points', async () => {
    await fs.mkdir(screenshots, { recursive: true });
    const context = await file.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    await page.goto(file.server.origin);
    await rows(page).first().waitFor();
    await rows(page).first().getByRole('button').click();
    const { dialog } = await breakdownNumbers(page);
    const open = dialog.getByRole('button', { name: /^Records of the post of / }).first();
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => open.getAttribute('aria-expanded')).toBe('true');
    const region = dialog.getByRole('region', { name: /^Records of the post of / }).first();
    const note = region.getByTestId('not-traceable');
    await note.waitFor();
    expect(await note.textContent()).toMatch(
      /^\d[\d,]* likes?.* not traceable: counted from the network’s figures/,
    );
    expect(await region.getByText('No records behind this line.').isVisible()).toBe(true);
    // What the note says is what the server answers for that post.
    const controls = await open.getAttribute('aria-controls');
    expect(await page.locator(`[id="${controls}"]`).count()).toBe(1);

    await page.waitForTimeout(350); // the dialog's fade-in (300 ms), for the screenshots and axe
    await expectAccessible(page, 'records 1280', [DIALOG]);
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
      await region.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(screenshots, `breakdown-records-${width}.png`) });
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});
