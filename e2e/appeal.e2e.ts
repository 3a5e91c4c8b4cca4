import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { signInToConsole } from './support/admin-console';
import { hasChromium, launchChromium } from './support/chromium';
import { linkFromCard } from './support/linking';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const screenshots = path.resolve(import.meta.dirname, '../docs/screenshots');
const widths = [375, 1280] as const;
const REASON = 'Engagement came from a ring of accounts liking each other';
const APPEAL = 'These accounts are my friends from school; nobody is paid and none of them are bots.';
const ANSWER = 'Thank you. We looked again: the likes stay excluded, the disqualification stands.';

/**
 * The operator's round trip with a member (issue 13, "Done when"): a demo author links; the operator disqualifies
 * them in the console's Members section with a reason; they leave the public board and read the reason on their
 * card; they send one appeal, which the operator answers in the console's Appeals section; the member reads the
 * answer on their card. At a phone width and a desktop width, the console at the same width as the member's page.
 */
describe.skipIf(!hasChromium)('a disqualified member appeals from their card', () => {
  let server: RunningServer;
  let browser: Browser;

  /** The operator, signed in to the console in a browser of their own. */
  const operator = async (width: number): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
    const page = await context.newPage();
    await signInToConsole(page, server.origin);
    return page;
  };

  /** Members → search → the member's page → Disqualify with a reason, confirmed. */
  const disqualify = async (desk: Page, handle: string) => {
    await desk.goto(`${server.origin}/admin/members?q=${encodeURIComponent(handle)}`);
    await desk
      .getByRole('link', { name: `@${handle}`, exact: true })
      .first()
      .click();
    await desk.getByRole('heading', { name: `@${handle}`, level: 1 }).waitFor();
    const standing = desk.getByRole('region', { name: 'Standing' });
    await standing.getByLabel(/^Reason/).fill(REASON);
    await standing.getByRole('button', { name: `Disqualify @${handle}` }).click();
    await desk
      .getByRole('dialog', { name: `Disqualify @${handle}?` })
      .getByRole('button', { name: 'Disqualify', exact: true })
      .click();
    await standing.getByText(`@${handle} is disqualified.`).waitFor();
  };

  /** Appeals → the member's open appeal → Send answer. */
  const answer = async (desk: Page, handle: string, text: string) => {
    await desk.goto(`${server.origin}/admin/appeals`);
    const form = desk.getByRole('form', { name: `Answer @${handle}` });
    await form.getByRole('textbox').fill(text);
    await form.getByRole('button', { name: 'Send answer' }).click();
    // Answered: the card shows the answer instead of the form.
    await form.waitFor({ state: 'detached' });
  };

  const onBoard = async (handle: string) => {
    const board = await fetch(`${server.origin}/api/mana?limit=50`);
    return manaResponseSchema.parse(await board.json()).data.authors.some((a) => a.authorName === handle);
  };

  beforeAll(async () => {
    server = await startServer({}, [], { demoCaughtUp: true });
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const shoot = async (page: Page, name: string, width: number) => {
    const card = page.getByRole('region', { name: 'Mana card' });
    await card.scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(screenshots, `appeal-${name}-${width}.png`) });
  };

  it.each(widths)(
    'shows the reason, takes one appeal and shows the answer (%i px)',
    async (width) => {
      const board = await fetch(`${server.origin}/api/mana?limit=20`);
      const authors = manaResponseSchema.parse(await board.json()).data.authors;
      const handle = authors[width === 375 ? 3 : 4]?.authorName;
      if (!handle) throw new Error('the demo leaderboard has too few authors');
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const errors = watchPageErrors(page);
      const failed: string[] = [];
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      // "Failed to load resource" names no URL; its location does (some loads emit no response event).
      page.on('console', (message) => {
        if (message.type() === 'error') failed.push(`console: ${message.location().url}`);
      });
      const desk = await operator(width);
      try {
        await page.goto(server.origin, { waitUntil: 'networkidle' });
        await linkFromCard(page, handle);
        expect(await onBoard(handle)).toBe(true);
        await disqualify(desk, handle);
        // Off the public board at once (every API process's cache hears of it), not at the next totals run.
        await expect.poll(() => onBoard(handle), { timeout: 5_000 }).toBe(false);

        await page.reload({ waitUntil: 'load' });
        const card = page.getByRole('region', { name: 'Mana card' });
        await card.getByRole('heading', { name: 'Your account is disqualified' }).waitFor();
        await card.getByText(REASON).waitFor();
        const field = card.getByRole('textbox', { name: 'Your appeal' });
        await card.getByRole('button', { name: 'Send appeal' }).click();
        await card.getByText('Please write at least 10 characters.').waitFor();
        await shoot(page, 'error', width);
        await field.fill(APPEAL);
        await card.getByText(`${APPEAL.length} / 500 characters`).waitFor();
        await shoot(page, 'form', width);
        await card.getByRole('button', { name: 'Send appeal' }).click();
        const sent = card.getByRole('region', { name: 'Your appeal' });
        await sent.getByText(APPEAL).waitFor();
        await sent.getByText(/Not answered yet/).waitFor();
        expect(await field.count()).toBe(0);
        await shoot(page, 'sent', width);

        await answer(desk, handle, ANSWER);
        await page.reload({ waitUntil: 'load' });
        await card.getByRole('region', { name: 'Your appeal' }).getByText(ANSWER).waitFor();
        await shoot(page, 'answered', width);
        // Chromium asks the origin for /favicon.ico on the simulated sign-in page (no icon link there; NOTES),
        // a 404 outside this feature: that one request alone is let through.
        const favicon = `console: ${server.origin}/favicon.ico`;
        const unexpected = failed.filter((f) => f !== favicon);
        const unexpectedErrors = failed.includes(favicon) ? errors.slice(1) : errors;
        expect({ errors: unexpectedErrors, failed: unexpected }).toEqual({ errors: [], failed: [] });
      } finally {
        await page.close();
        await desk.context().close();
      }
    },
    240_000,
  );
});
