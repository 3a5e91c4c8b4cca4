import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, expectNoSeriousAxeFindings, signInToConsole as signIn } from './support/admin-console';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAppealsSection, screenshotAppealsSection } from './admin/appeals-steps';
import { checkMembersSection, screenshotMembersSection } from './admin/members-steps';
import { checkRulesSection, screenshotRulesSection } from './admin/rules-steps';
import { consoleSectionsSuite } from './admin/sections-suite';
import { hasChromium, launchChromium } from './support/chromium';
import { watchPageErrors } from './support/page-errors';
import { startServer, type RunningServer } from './support/server';

const shots = path.resolve(import.meta.dirname, '../docs/screenshots');

async function openWhatsNew(page: Page, width: number): Promise<void> {
  if (width < 1330) {
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Updates' }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Updates' }).click();
  }
}

/**
 * The console's sign-in, announcements and audit log, and (below, on a server of their own) its rules, members and
 * appeals sections (the steps of each live in e2e/admin/; e2e/admin-operations.e2e.ts holds the others): at
 * 1280 px and at a phone width, with no serious or critical axe findings, and screenshots at four widths.
 */
describe.skipIf(!hasChromium)('the operator console in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, [], { demoCaughtUp: true }), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each([1280, 375])(
    'at %i px: signs in as the demo admin, publishes to What’s New, finds it in the audit log, signs out',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      // The simulated X's sign-in page names no icon, so Chromium asks for /favicon.ico (as in linking.e2e.ts).
      await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      try {
        await page.goto(`${server.origin}/admin`, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { name: 'Operator console' }).waitFor();
        await expectNoSeriousAxeFindings(page, 'sign-in');
        await signIn(page, server.origin);
        await expectNoSeriousAxeFindings(page, 'announcements');

        const title = `Console news at ${width} px`;
        await page.getByRole('link', { name: 'New announcement' }).click();
        await page.getByLabel('Title').fill(title);
        await page.getByLabel('Text').fill('Published from the operator console.');
        // The live preview is the What's New entry itself.
        await page.getByRole('region', { name: 'Preview' }).getByRole('heading', { name: title }).waitFor();
        await expectNoSeriousAxeFindings(page, 'editor');
        await page.getByRole('button', { name: 'Save and publish' }).click();
        const confirm = page.getByRole('dialog', { name: 'Publish now?' });
        await confirm.getByRole('button', { name: 'Publish' }).click();
        await page.waitForURL(/\/admin\/announcements$/);
        const row = page.getByRole('listitem').filter({ hasText: title });
        await row.getByText('published', { exact: true }).waitFor();

        const main = await context.newPage();
        await main.goto(server.origin, { waitUntil: 'networkidle' });
        await openWhatsNew(main, width);
        await main
          .getByRole('dialog', { name: "What's New" })
          .getByRole('heading', { name: title })
          .waitFor();
        await main.close();

        await page
          .getByRole('navigation', { name: 'Console sections' })
          .getByRole('link', { name: 'Audit log' })
          .click();
        await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
        await page.getByLabel('Action', { exact: true }).fill('announcement.publish');
        await page.getByRole('button', { name: 'Apply' }).click();
        // A table from 768 px, cards below: whichever is shown.
        const entry = page
          .getByRole('row')
          .or(page.getByRole('listitem'))
          .filter({ hasText: `admin:@${DEMO_ADMIN}` })
          .filter({ hasText: 'announcement.publish' })
          .first();
        await entry.waitFor();
        await expectNoSeriousAxeFindings(page, 'audit');

        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByText('You are signed out.').waitFor();
        const session = await page.evaluate(async () => (await fetch('/api/admin/session')).status);
        expect(session).toBe(401);
        // The only error is the session check after signing out (401), which the console turns into sign-in.
        expect(errors.filter((e) => !e.includes('status of 401'))).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('takes screenshots of sign-in, announcements, the editor and the audit log at four widths', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      for (const width of [375, 768, 1280, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.origin}/admin`, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { name: 'Operator console' }).waitFor();
        await page.screenshot({ path: path.join(shots, `admin-sign-in-${width}.png`) });
      }
      await signIn(page, server.origin);
      for (const width of [375, 768, 1280, 1600]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${server.origin}/admin/announcements`, { waitUntil: 'networkidle' });
        await page.getByRole('list', { name: 'All announcements' }).waitFor();
        await page.screenshot({ path: path.join(shots, `admin-announcements-${width}.png`), fullPage: true });
        await page.getByRole('link', { name: /^Edit Refer a friend/ }).click();
        await page.getByRole('region', { name: 'Preview' }).waitFor();
        await page.screenshot({ path: path.join(shots, `admin-editor-${width}.png`), fullPage: true });
        await page.goto(`${server.origin}/admin/audit`, { waitUntil: 'networkidle' });
        await page.getByRole('heading', { name: 'Audit log' }).waitFor();
        await page
          .getByRole('table')
          .or(page.getByRole('list', { name: 'Audit entries, newest first' }))
          .first()
          .waitFor();
        await page.screenshot({ path: path.join(shots, `admin-audit-${width}.png`), fullPage: true });
      }
    } finally {
      await context.close();
    }
  });
});

/** The sections that run the programme's rules and people, on a demo server of their own. */
describe.skipIf(!hasChromium)('the console’s rules, members and appeals in the browser', () => {
  consoleSectionsSuite([
    { name: 'programme rules', check: checkRulesSection, screenshot: screenshotRulesSection },
    { name: 'members', check: checkMembersSection, screenshot: screenshotMembersSection },
    { name: 'appeals', check: checkAppealsSection, screenshot: screenshotAppealsSection },
  ]);
});
