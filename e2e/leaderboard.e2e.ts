import fs from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema, type ManaAuthor } from '@manaboard/contract';
import { hasChromium } from './support/chromium';
import { useBrowserFile } from './support/harness';
import { linkFromCard } from './support/linking';
import { watchPageErrors } from './support/page-errors';
import {
  CARD,
  DIALOG,
  LEADERBOARD,
  board,
  breakdownNumbers,
  expectAccessible,
  rankOf,
  rows,
  screenshots,
  shootBoard,
  showsPostsGrid,
  widths,
} from './leaderboard-steps';

describe.skipIf(!hasChromium)('the Mana Leaderboard in the browser (demo world)', () => {
  // One server and one Chromium for the file, started side by side (support/harness.ts).
  const file = useBrowserFile();

  beforeAll(async () => {
    // The real server with the demo world (200+ authors, 2,000+ posts), serving the built web app. Ranks move
    // while the demo history replays; the harness's server has caught up, so the page and the API agree.
    await fs.mkdir(screenshots, { recursive: true });
  });

  async function api(pathAndQuery: string): Promise<{ authors: ManaAuthor[]; total: number }> {
    const response = await fetch(`${file.server.origin}${pathAndQuery}`);
    return manaResponseSchema.parse(await response.json()).data;
  }

  it.each(widths)(
    'ranks, posts grid and breakdown at %i px: columns, labels, native cards, sums, no serious a11y findings',
    async (width) => {
      const context = await file.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      try {
        await page.goto(file.server.origin);
        await rows(page).nth(19).waitFor();
        expect(await rows(page).count()).toBe(20);
        const top = await api('/api/mana?limit=20');
        expect(await rankOf(rows(page).first())).toBe('1');
        expect(await rows(page).first().textContent()).toContain(`@${top.authors[0]?.authorName}`);
        const headers = await board(page).getByRole('columnheader').allTextContents();
        expect(headers).toEqual(width < 640 ? ['#', 'User', 'Mana'] : ['#', 'User', 'Tracked Post', 'Mana']);
        await board(page)
          .getByRole('button', { name: width < 768 ? 'Weekly' : 'This Week', exact: true })
          .waitFor();
        if (width < 640) {
          await board(page).getByRole('button', { name: 'Mana: show Tracked Post instead' }).click();
          expect(await board(page).getByRole('columnheader').allTextContents()).toEqual([
            '#',
            'User',
            'Tracked Post',
          ]);
          await board(page).getByRole('button', { name: 'Tracked Post: show Mana instead' }).click();
        }
        await expectAccessible(page, `ranks ${width}`, [LEADERBOARD]);
        await shootBoard(page, `leaderboard-ranks-${width}.png`);

        await showsPostsGrid(page, width);

        // Back to ranks; the first row's Mana opens its breakdown, whose lines sum to the figure.
        await page.keyboard.press('ArrowLeft');
        const figureText = await rows(page).first().getByRole('button').textContent();
        const figure = Number(figureText?.replace(/,/g, ''));
        await rows(page).first().getByRole('button').click();
        const { dialog, lines, total } = await breakdownNumbers(page);
        expect(lines.length).toBeGreaterThan(0);
        expect(lines.reduce((sum, mana) => sum + mana, 0)).toBe(total);
        expect(total).toBe(figure);
        await page.waitForTimeout(350);
        if (width === 375 || width === 1280) await expectAccessible(page, `breakdown ${width}`, [DIALOG]);
        await page.screenshot({ path: path.join(screenshots, `breakdown-${width}.png`) });
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('debounces the search (one request after quick typing), clears it, toggles the period and shows more', async () => {
    const context = await file.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchPageErrors(page);
    const manaCalls: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/mana') manaCalls.push(url);
    });
    try {
      await page.goto(file.server.origin);
      await rows(page).nth(19).waitFor();
      const target = (await api('/api/mana?limit=1&offset=30')).authors[0];
      if (!target) throw new Error('the demo world has fewer than 31 authors');
      const before = manaCalls.length;
      const box = board(page).getByRole('searchbox', { name: 'Search authors and posts' });
      await box.click();
      await page.keyboard.type(`  @${target.authorName}`, { delay: 40 });
      await rows(page)
        .filter({ hasText: `@${target.authorName}` })
        .first()
        .waitFor();
      await page.waitForTimeout(700);
      const searches = manaCalls.slice(before);
      expect(searches.map((url) => url.searchParams.get('search'))).toEqual([target.authorName]);
      expect(await rankOf(rows(page).first())).toBe(String(target.rank));

      await board(page).getByRole('button', { name: 'Clear search' }).click();
      expect(await box.inputValue()).toBe('');
      await rows(page).nth(19).waitFor();
      expect(await rankOf(rows(page).first())).toBe('1');

      // This Week sends weekly=true and shows the week's ranks.
      const weekly = await api('/api/mana?limit=20&weekly=true');
      const weeklyAnswer = page.waitForResponse((r) => r.url().includes('weekly=true'));
      await board(page).getByRole('button', { name: 'This Week', exact: true }).click();
      await weeklyAnswer;
      await rows(page)
        .first()
        .filter({ hasText: `@${weekly.authors[0]?.authorName}` })
        .waitFor();
      expect(manaCalls.at(-1)?.searchParams.get('weekly')).toBe('true');
      await board(page).getByRole('button', { name: 'All Time', exact: true }).click();
      await rows(page)
        .first()
        .filter({ hasText: `@${(await api('/api/mana?limit=1')).authors[0]?.authorName}` })
        .waitFor();

      await board(page).getByRole('button', { name: 'Show more' }).click();
      await rows(page).nth(39).waitFor();
      expect(manaCalls.at(-1)?.searchParams.get('offset')).toBe('20');
      expect(await rankOf(rows(page).nth(20))).toBe('21');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  describe('a linked member', () => {
    let member: ManaAuthor;
    let context: BrowserContext;
    let page: Page;
    let errors: string[];

    beforeAll(async () => {
      // A demo author well below the first page: their own row must be pinned.
      const found = (await api('/api/mana?limit=1&offset=39')).authors[0];
      if (!found) throw new Error('the demo world has fewer than 40 authors');
      member = found;
      context = await file.browser.newContext({ viewport: { width: 1280, height: 1000 } });
      await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
      page = await context.newPage();
      errors = watchPageErrors(page);
      await page.goto(file.server.origin);
      await linkFromCard(page, member.authorName);
    });
    afterAll(async () => {
      await context?.close();
    });

    it('sees their own row pinned at the bottom with its global rank', async () => {
      const own = page.getByTestId('own-row');
      await own.waitFor();
      expect(await own.evaluate((row) => row.parentElement?.tagName)).toBe('TFOOT');
      expect(await rankOf(own)).toBe(String(member.rank));
      expect(await own.textContent()).toContain(`@${member.authorName}`);
      await expectAccessible(page, 'pinned own row', [LEADERBOARD, CARD]);
      expect(errors).toEqual([]);
    });

    it('sees the card stats on hover and on focus, and the breakdown of the card total sums to it', async () => {
      const card = page.getByRole('region', { name: 'Mana card' });
      const panel = card.locator('#card-stats-panel');
      expect(await panel.isVisible()).toBe(false);
      await card.getByTestId('card-stats').hover();
      await panel.waitFor({ state: 'visible' });
      await card
        .getByTestId('stats-rank')
        .filter({ hasText: `#${member.rank}` })
        .waitFor();
      expect(await card.getByTestId('stats-handle').textContent()).toBe(
        `@${member.authorName.toUpperCase()}`,
      );
      expect(await card.getByTestId('stats-total').textContent()).toBe(
        member.totalMana.toLocaleString('en-US'),
      );
      // Today's count of the programme's limit of 5 (0/0 only while loading or if a call fails).
      await card
        .getByTestId('stats-daily')
        .filter({ hasText: /^\d+\/5$/ })
        .waitFor();
      await expectAccessible(page, 'card stats', [CARD]);
      await card.screenshot({ path: path.join(screenshots, 'card-stats-1280.png') });

      await page.mouse.move(0, 0);
      await panel.waitFor({ state: 'hidden' });
      await card.getByRole('button', { name: /Your stats/ }).focus();
      await panel.waitFor({ state: 'visible' });
      await page.keyboard.press('Tab');
      await card.getByRole('button', { name: /Total Mana/ }).press('Enter');
      const { dialog, lines, total } = await breakdownNumbers(page);
      expect(lines.reduce((sum, mana) => sum + mana, 0)).toBe(total);
      expect(total).toBe(member.totalMana);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    });

    it('sees the card stats on tap at 375 px (touch has no hover)', async () => {
      const touch = await file.browser.newContext({
        viewport: { width: 375, height: 812 },
        hasTouch: true,
        isMobile: true,
        storageState: await context.storageState(),
      });
      try {
        const phone = await touch.newPage();
        const phoneErrors = watchPageErrors(phone);
        await phone.goto(file.server.origin);
        const card = phone.getByRole('region', { name: 'Mana card' });
        await card.getByRole('button', { name: 'Unlink' }).waitFor();
        const panel = card.locator('#card-stats-panel');
        expect(await panel.isVisible()).toBe(false);
        await card.getByRole('button', { name: /Your stats/ }).tap();
        await panel.waitFor({ state: 'visible' });
        await card
          .getByTestId('stats-rank')
          .filter({ hasText: `#${member.rank}` })
          .waitFor();
        await card.screenshot({ path: path.join(screenshots, 'card-stats-375.png') });
        expect(phoneErrors).toEqual([]);
      } finally {
        await touch.close();
      }
    });
  });
});
