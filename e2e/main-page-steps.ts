import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  bar,
  bodyOverflow,
  focusedName,
  inlineNav,
  menu,
  menuButton,
  settled,
  visible,
} from './support/main-page';

// The main page e2e's step sequences, beside main-page.e2e.ts (as admin/*-steps.ts are) so that file keeps its cases
// under the 250-line limit; each step is moved verbatim from the test that calls it.

const screenshots = path.resolve(import.meta.dirname, '../test-results/screenshots');

export type BarExpectation = { inline: boolean; buttons: boolean; video: boolean };
export type Scan = (page: Page, where: string, dialog?: string) => Promise<void>;

/** One width of the bar test: which links and buttons the bar shows, and what the menu holds where the bar hides them. */
export async function expectBarAt(page: Page, width: number, expected: BarExpectation): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  const facts = {
    inline: await visible(inlineNav(page)),
    menuButton: await visible(menuButton(page)),
    buttons: await visible(bar(page).getByRole('link', { name: /Community Site/ })),
    pitchdeck: await visible(bar(page).getByRole('link', { name: /Pitchdeck/ })),
    video: await visible(page.getByTestId('video-slot')),
    logo: await visible(page.getByTestId('logo')),
    account: await visible(bar(page).getByRole('button', { name: 'Link account' })),
  };
  expect({ width, ...facts }).toEqual({
    width,
    inline: expected.inline,
    menuButton: !expected.inline,
    buttons: expected.buttons,
    pitchdeck: expected.buttons,
    video: expected.video,
    logo: true,
    account: true,
  });
  if (expected.inline) {
    // From 1330 px every link sits in the bar; Video stays hidden because the video is on the page.
    for (const name of ['How to Participate', 'FAQ', 'Updates', 'Maker Tool'])
      expect(await visible(inlineNav(page).getByRole('button', { name }))).toBe(true);
    expect(await visible(inlineNav(page).getByRole('link', { name: /Shareable Content/ }))).toBe(true);
    expect(await visible(inlineNav(page).getByRole('button', { name: 'Video' }))).toBe(false);
  } else {
    await menuButton(page).click();
    await menu(page).waitFor();
    expect(await visible(menu(page).getByRole('button', { name: 'Video' }))).toBe(!expected.video);
    // The bar's two buttons move into the menu where the bar hides them.
    expect(await visible(menu(page).getByRole('link', { name: /Community Site/ }))).toBe(!expected.buttons);
    await page.keyboard.press('Escape');
    await menu(page).waitFor({ state: 'detached' });
  }
}

/** One narrow width of the video test: the overlay from the menu plays only on demand, and gives focus back. */
export async function expectVideoOverlayAt(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await menuButton(page).click();
  await menu(page).getByRole('button', { name: 'Video' }).click();
  const overlay = page.getByRole('dialog', { name: 'Video' });
  await overlay.getByRole('button', { name: /Play video/ }).waitFor();
  expect(await overlay.locator('iframe').count()).toBe(0);
  expect(await bodyOverflow(page)).toBe('hidden');
  await settled(page);
  await page.screenshot({ path: path.join(screenshots, `video-${width}.png`) });
  await overlay.getByRole('button', { name: /Play video/ }).click();
  expect(await overlay.locator('iframe').getAttribute('src')).toContain(
    'https://www.youtube-nocookie.com/embed/',
  );
  if (width === 375) await page.keyboard.press('Escape');
  else await overlay.getByRole('button', { name: 'Close' }).click();
  await overlay.waitFor({ state: 'detached' });
  expect(await focusedName(page)).toBe('Menu');
}

/** One width of the menu test: full screen, focus trapped, closed by its button and by navigating. */
export async function expectMenuAt(page: Page, width: number): Promise<void> {
  await page.screenshot({ path: path.join(screenshots, `main-${width}.png`), fullPage: false });
  await menuButton(page).click();
  const dialog = menu(page);
  await dialog.waitFor();
  await settled(page);
  const box = await dialog.boundingBox();
  // Full screen: the whole viewport but the scrollbar gutter the page keeps (html { scrollbar-gutter }).
  expect(box).toMatchObject({ x: 0, y: 0, height: 900 });
  expect(box!.width).toBeGreaterThanOrEqual(width - 16);
  expect(await bodyOverflow(page)).toBe('hidden');
  await page.screenshot({ path: path.join(screenshots, `menu-${width}.png`) });
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  }
  await dialog.getByRole('button', { name: 'Close menu' }).click();
  await dialog.waitFor({ state: 'detached' });
  expect(await focusedName(page)).toBe('Menu');
  await menuButton(page).click();
  await dialog.getByRole('button', { name: 'How to Participate' }).click();
  await dialog.waitFor({ state: 'detached' });
  const modal = page.getByRole('dialog', { name: 'How to earn Mana' });
  await modal.getByText('Step 1').waitFor();
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
  expect(await focusedName(page)).toBe('Menu');
}

/** The open maker prefills the post and settles for its screenshot, then closes on Esc. */
export async function expectMakerPrefill(page: Page, width: number): Promise<void> {
  const maker = page.getByRole('dialog', { name: 'Maker tool' });
  const frame = page.frameLocator('iframe[title="Maker tool"]');
  await frame.getByRole('button', { name: 'Download PNG' }).waitFor();
  await maker.getByText('Loading Maker tool...').waitFor({ state: 'detached' });
  const post = await frame.getByRole('link', { name: 'Post it' }).getAttribute('href');
  expect(decodeURIComponent(post ?? '')).toContain('#ManaBoard #EarnMana');
  await settled(page);
  await page.screenshot({ path: path.join(screenshots, `maker-${width}.png`) });
  await page.keyboard.press('Escape');
  await maker.waitFor({ state: 'detached' });
}

/** Tab walks the bar in reading order and reaches the video's play button. */
export async function expectTabOrder(page: Page): Promise<void> {
  await page.locator('body').focus();
  const seen: string[] = [];
  for (let i = 0; i < 16; i++) {
    await page.keyboard.press('Tab');
    seen.push(await focusedName(page));
  }
  const expectedOrder = [
    'Skip to content',
    'Manaboard: play a surprise sound',
    'How to Participate',
    'FAQ',
    'Updates',
    'Shareable Content (opens in a new tab)',
    'Maker Tool',
    'Community Site (opens in a new tab)',
    'Pitchdeck (opens in a new tab)',
    'Link account',
  ];
  expect(seen.slice(0, expectedOrder.length).filter((name) => name !== 'Demo: simulated X')).toEqual(
    expectedOrder,
  );
  expect(seen.some((name) => name.startsWith('Play video'))).toBe(true);
}

/** The skip link works, and every modal opens with Enter and gives focus back on Esc. */
export async function expectModalsByKeyboard(page: Page): Promise<void> {
  // Skip link, then every modal opens with Enter and gives focus back on Esc.
  await page.reload({ waitUntil: 'networkidle' });
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  for (const [name, title] of [
    ['How to Participate', 'How to earn Mana'],
    ['FAQ', 'FAQ'],
    ['Updates', "What's New"],
    ['Maker Tool', 'Maker tool'],
  ] as const) {
    await inlineNav(page).getByRole('button', { name }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    if (title !== "What's New" && title !== 'Maker tool') {
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter'); // a page dot or an arrow, by keyboard
      expect(await dialog.getByText(/^Step \d$/).count()).toBe(1);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await focusedName(page)).toBe(name);
  }
}

/** Collects the serious and critical axe findings of each scan into `findings`. */
export function axeScanner(findings: string[]): Scan {
  // The page once, then each dialog on its own (its backdrop hides the page, which was scanned already).
  const scan = async (page: Page, where: string, dialog?: string) => {
    const builder = new AxeBuilder({ page });
    const result = await (dialog ? builder.include(dialog) : builder).analyze();
    for (const violation of result.violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical')
        findings.push(
          `${where}: ${violation.id} (${violation.nodes.map((n) => n.target.join(' ')).join(', ')})`,
        );
    }
  };
  return scan;
}

/** The menu (below 1330 px) and each modal, scanned on their own. */
export async function scanMenuAndModals(page: Page, width: number, scan: Scan): Promise<void> {
  if (width < 1330) {
    await menuButton(page).click();
    await menu(page).waitFor();
    await settled(page);
    await scan(page, `menu ${width}`, '[role="dialog"]');
    await page.keyboard.press('Escape');
  }
  for (const [opener, title] of [
    ['openFAQModal', 'FAQ'],
    ['openHowToEarnManaModal', 'How to earn Mana'],
    ['openMakerModal', 'Maker tool'],
    ['openUpdatesModal', "What's New"],
  ] as const) {
    await page.evaluate((name) => (window as unknown as Record<string, () => void>)[name]!(), opener);
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    await settled(page);
    await scan(page, `${title} ${width}`, '[role="dialog"]');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  }
}
