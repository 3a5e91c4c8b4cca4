import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { operatorEnv, runScript } from '../apps/server/src/test/cli-process';
import { hasChromium, launchChromium } from './support/chromium';
import { demoCaughtUp } from './support/demo';
import { linkFromCard } from './support/linking';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const screenshots = path.resolve(import.meta.dirname, '../docs/screenshots');
const widths = [375, 1280] as const;
const REASON = 'Engagement came from a ring of accounts liking each other';
const APPEAL = 'These accounts are my friends from school; nobody is paid and none of them are bots.';
const ANSWER = 'Thank you. We looked again: the likes stay excluded, the disqualification stands.';

/**
 * A demo author links, is disqualified by the operator (the CLI, through the running server), sees the reason on
 * their card, sends one appeal, and reads the operator's answer: at a phone width and a desktop width.
 */
describe.skipIf(!hasChromium)('a disqualified member appeals from their card', () => {
  let server: RunningServer;
  let browser: Browser;
  const env = () => operatorEnv(server.dataDir, { LOG_LEVEL: 'silent' });
  const mana = (args: string[]) => runScript('src/cli/mana.ts', args, env());

  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'info' });
    browser = await launchChromium();
    await demoCaughtUp(server, 300_000);
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
      try {
        await page.goto(server.origin, { waitUntil: 'networkidle' });
        await linkFromCard(page, handle);
        const done = await mana(['disqualify', handle, '--reason', REASON]);
        expect(done).toMatchObject({ code: 0, stderr: '' });

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

        const open = await mana(['appeals']);
        const id = new RegExp(`^(\\d+) .*@${handle} `, 'm').exec(open.stdout)?.[1];
        if (!id) throw new Error(`no open appeal of @${handle}:\n${open.stdout}${open.stderr}`);
        expect(await mana(['answer', id, '--answer', ANSWER])).toMatchObject({ code: 0, stderr: '' });
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
      }
    },
    240_000,
  );
});
