import type { Browser, Page } from 'playwright-core';
import { watchPageErrors } from './page-errors';

/** The unlinked mana card's one big button ("EARN MORE MANA"). */
export const earnMoreMana = (page: Page) => page.getByRole('button', { name: /Earn more Mana/i });

export type SignInOptions = {
  /** Called on the auth-return screen (e.g. to take a screenshot) before it moves on. */
  onAuthReturn?: (page: Page) => Promise<void>;
};

/**
 * Links `handle` the way a person does: the card, the simulated X's sign-in page (Handle, Authorize app), the
 * auth-return screen, back on the main page with the linked card.
 */
export async function linkFromCard(page: Page, handle: string, options: SignInOptions = {}): Promise<void> {
  await earnMoreMana(page).click();
  await page.waitForURL(/\/x-sim\//);
  await page.getByLabel('Handle').fill(handle);
  await page.getByRole('button', { name: 'Authorize app' }).click();
  await page.waitForURL(/\/auth\/callback/);
  if (options.onAuthReturn) await options.onAuthReturn(page);
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('button', { name: 'Unlink' }).waitFor();
}

/** This browser's id (the X-User-Id the app sends), read from its storage. */
export async function browserIdOf(page: Page): Promise<string> {
  const id = await page.evaluate(() => localStorage.getItem('manaboard.userId'));
  if (!id) throw new Error('this browser has no id yet');
  return id;
}

/** A fresh browser (its own storage, so its own browser id) at `viewport`, failing on console errors. */
export async function freshLinkingPage(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({
    viewport,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  const errors = watchPageErrors(page);
  // The simulated X's sign-in page names no icon, so Chromium asks for /favicon.ico, which 404s and would be
  // logged as a console error against this page; it is not our app's request.
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204, body: '' }));
  return { context, page, errors };
}

/** How many referees the member of this browser id has (GET /referrals/stats). */
export async function refereeCountOf(origin: string, browserId: string): Promise<number> {
  const response = await fetch(`${origin}/referrals/stats`, {
    headers: { 'X-User-Id': browserId },
  });
  const body = (await response.json()) as { data: { refereeCount: number } };
  return body.data.refereeCount;
}
