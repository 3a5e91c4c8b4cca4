// The main page's browser-test helpers: locators of the top bar and menu, the settle wait before a screenshot,
// and the walk every paged modal (How to earn Mana, FAQ) must pass.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

const CLOSE_MS = 350;

/** The pages of How to earn Mana and of the FAQ (SPEC §2), in order. */
export const howToEarnTitles = [
  'What is the programme',
  'Getting Started',
  'Earning Mana',
  'Interaction Rewards',
  'Rules',
];
export const faqTitles = ['The staking protocol game', 'The swap platform', 'The mystic machines'];

/** Waits out the fades and slides (a loaded machine can stretch a 300 ms transition) before a screenshot. */
export const settled = async (page: Page) => {
  await page.waitForTimeout(CLOSE_MS);
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
};
export const bar = (page: Page) => page.getByRole('banner');
export const inlineNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
export const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu', exact: true });
export const menu = (page: Page) => page.getByRole('dialog', { name: 'Menu' });
export const visible = (locator: Locator) => locator.isVisible();
export const bodyOverflow = (page: Page) => page.evaluate(() => document.body.style.overflow);
export const focusedName = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? (el.getAttribute('aria-label') ?? el.textContent ?? '').trim() : '';
  });

export async function pagedModal(
  page: Page,
  opener: () => Promise<void>,
  title: string,
  pageTitles: string[],
  shot: string,
): Promise<void> {
  await opener();
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByText('Step 1').waitFor();
  expect(await bodyOverflow(page)).toBe('hidden');
  expect(await page.getByTestId('torn-paper-frame').getAttribute('aria-hidden')).toBe('true');
  await settled(page);
  await page.screenshot({ path: shot });
  const heading = dialog.getByRole('heading', { level: 3 });
  const dots = dialog.getByRole('group').getByRole('button');
  expect(await dots.count()).toBe(pageTitles.length);
  for (let index = 0; index < pageTitles.length; index++) {
    expect(await heading.textContent()).toBe(pageTitles[index]);
    expect(await dialog.getByText(`Step ${index + 1}`, { exact: true }).count()).toBe(1);
    if (index < pageTitles.length - 1) await dialog.getByRole('button', { name: 'Next page' }).click();
  }
  expect(await dialog.getByRole('button', { name: 'Next page' }).getAttribute('aria-disabled')).toBe('true');
  expect(await heading.textContent()).toBe(pageTitles.at(-1));
  await dialog.getByRole('button', { name: 'Previous page' }).click();
  expect(await heading.textContent()).toBe(pageTitles.at(-2));
  await dots.nth(0).click();
  expect(await heading.textContent()).toBe(pageTitles[0]);
  await dots.nth(pageTitles.length - 1).click();
  expect(await dots.nth(pageTitles.length - 1).getAttribute('aria-current')).toBe('step');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await bodyOverflow(page)).not.toBe('hidden');
  await opener();
  await dialog.getByText('Step 1').waitFor();
  expect(await heading.textContent()).toBe(pageTitles[0]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
}
