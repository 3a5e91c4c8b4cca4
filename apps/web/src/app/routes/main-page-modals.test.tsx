import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { brandingRoutes, demoBranding } from '../../test/demo-branding';
import { fakeReferralService } from '../../test/fake-referral-service';
import { stubWidth } from '../../test/leaderboard-fixtures';
import { renderWithProviders } from '../../test/render-with-providers';
import { MainPage } from './main-page';

const closeAnimation = () => act(() => new Promise((r) => setTimeout(r, 330)));

async function page() {
  fakeReferralService(brandingRoutes());
  renderWithProviders(<MainPage />, '/');
  await screen.findByText('© 2025 Manaboard DAO');
}

afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

describe('the top bar and its slide-in menu', () => {
  it('lists the links in SPEC order, the two external buttons and the logo', async () => {
    await page();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'How to Participate',
      'FAQ',
      'Updates',
      'Shareable Content (opens in a new tab)',
      'Maker Tool',
      'Video',
    ]);
    const shareable = within(nav).getByRole('link', { name: /Shareable Content/ });
    expect(shareable.getAttribute('href')).toBe(demoBranding.links.shareableContent);
    expect(shareable.getAttribute('target')).toBe('_blank');
    expect(shareable.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('link', { name: /Community Site/ }).getAttribute('href')).toBe(
      demoBranding.links.communitySite,
    );
    expect(screen.getByRole('link', { name: /Pitchdeck/ }).getAttribute('href')).toBe(
      demoBranding.links.pitchdeck,
    );
    expect(screen.getByRole('button', { name: 'Manaboard: play a surprise sound' })).toBeTruthy();
  });

  it('opens as a focus-trapping dialog, closes on Esc and on its close button, and returns focus', async () => {
    await page();
    const toggle = screen.getByRole('button', { name: 'Menu' });
    toggle.focus();
    fireEvent.click(toggle);
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(within(menu).getByRole('button', { name: 'Close menu' }));
    expect(document.body.style.overflow).toBe('hidden');
    // Shift+Tab from the first item wraps to the last one inside the menu.
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(menu.contains(document.activeElement)).toBe(true);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(document.body.style.overflow).not.toBe('hidden');

    fireEvent.click(toggle);
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Close menu' }),
    );
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
  });

  it('closes on navigation: choosing FAQ closes the menu and opens the FAQ', async () => {
    await page();
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    const menu = await screen.findByRole('dialog', { name: 'Menu' });
    expect(within(menu).getByRole('link', { name: /Community Site/ })).toBeTruthy();
    fireEvent.click(within(menu).getByRole('button', { name: 'FAQ' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
    expect(await screen.findByRole('dialog', { name: 'FAQ' })).toBeTruthy();
  });
});

describe('How to earn Mana', () => {
  it('shows 5 labelled steps with arrows and dots, numbers from the programme rules, and resets on open', async () => {
    await page();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    fireEvent.click(within(nav).getByRole('button', { name: 'How to Participate' }));
    const dialog = await screen.findByRole('dialog', { name: 'How to earn Mana' });
    await within(dialog).findByText('Step 1');
    expect(within(dialog).getByRole('heading', { level: 3 }).textContent).toBe('What is the programme');
    const dots = within(within(dialog).getByRole('group', { name: 'How to earn Mana pages' })).getAllByRole(
      'button',
    );
    expect(dots.map((dot) => dot.getAttribute('aria-label'))).toEqual([
      'Step 1: What is the programme',
      'Step 2: Getting Started',
      'Step 3: Earning Mana',
      'Step 4: Interaction Rewards',
      'Step 5: Rules',
    ]);
    const previous = within(dialog).getByRole('button', { name: 'Previous page' });
    const next = within(dialog).getByRole('button', { name: 'Next page' });
    expect(previous.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(next);
    fireEvent.click(next);
    expect(within(dialog).getByText('Step 3')).toBeTruthy();
    // The rules of the test programme (×4, 7/8/9/11, 6 a day, 75 per referral), not the demo defaults.
    expect(dialog.textContent).toContain(
      '7 Mana per like, 8 per reply, 9 per repost and 11 per quote, times 4',
    );
    expect(dialog.textContent).toContain('Your first 6 tracked posts');
    expect(dialog.textContent).toContain('you earn 75 Mana for each referred member');
    fireEvent.click(dots[3]!);
    expect(dialog.textContent).toContain('paid 12 to 48 hours after');
    expect(dots[3]!.getAttribute('aria-current')).toBe('step');
    fireEvent.click(dots[4]!);
    expect(next.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(next);
    expect(within(dialog).getByText('Step 5')).toBeTruthy();
    const learnMore = within(dialog).getByRole('link', { name: /Learn more about the Manaboard DAO/ });
    expect(learnMore.getAttribute('href')).toBe(demoBranding.links.learnMore);
    expect(screen.getByTestId('torn-paper-frame').getAttribute('aria-hidden')).toBe('true');

    fireEvent.keyDown(document, { key: 'Escape' });
    await closeAnimation();
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => window.openHowToEarnManaModal?.());
    const again = await screen.findByRole('dialog', { name: 'How to earn Mana' });
    expect(within(again).getByText('Step 1')).toBeTruthy();
  });
});

describe('FAQ', () => {
  it('has the 3 pages of SPEC §2 with the same navigation, opened by window.openFAQModal', async () => {
    await page();
    act(() => window.openFAQModal?.());
    const dialog = await screen.findByRole('dialog', { name: 'FAQ' });
    const titles: string[] = [];
    for (let step = 1; step <= 3; step++) {
      expect(within(dialog).getByText(`Step ${step}`)).toBeTruthy();
      titles.push(within(dialog).getByRole('heading', { level: 3 }).textContent ?? '');
      fireEvent.click(within(dialog).getByRole('button', { name: 'Next page' }));
    }
    expect(titles).toEqual(demoBranding.faq.map((faqPage) => faqPage.title));
    expect(dialog.textContent).toContain('Players earn the token and card packs before the token launch.');
    expect(within(dialog).getAllByRole('button', { name: /^Step \d/ })).toHaveLength(3);
  });
});

describe('Maker tool', () => {
  it('loads the built-in maker in a sandboxed frame (no top navigation, no forms) behind a loading spinner', async () => {
    await page();
    act(() => window.openMakerModal?.());
    const dialog = await screen.findByRole('dialog', { name: 'Maker tool' });
    expect(within(dialog).getByRole('status').textContent).toContain('Loading Maker tool...');
    const frame = (await within(dialog).findByTitle('Maker tool')) as HTMLIFrameElement;
    const src = new URL(frame.getAttribute('src') ?? '', 'http://localhost');
    expect(src.pathname).toBe('/maker.html');
    expect(src.searchParams.get('programme')).toBe('Manaboard');
    expect(src.searchParams.get('tags')).toBe('ManaBoard,EarnMana');
    const sandbox = frame.getAttribute('sandbox') ?? '';
    expect(sandbox).toContain('allow-scripts');
    expect(sandbox).toContain('allow-downloads');
    expect(sandbox).not.toContain('allow-top-navigation');
    expect(sandbox).not.toContain('allow-forms');
    fireEvent.load(frame);
    expect(within(dialog).queryByText('Loading Maker tool...')).toBeNull();
  });

  it('shows an external maker when branding configures one', async () => {
    const branding = {
      ...demoBranding,
      links: { ...demoBranding.links, maker: 'https://maker.example/tool' },
    };
    fakeReferralService(brandingRoutes(branding));
    renderWithProviders(<MainPage />, '/');
    await screen.findByText('© 2025 Manaboard DAO');
    act(() => window.openMakerModal?.());
    const frame = await screen.findByTitle('Maker tool');
    expect(frame.getAttribute('src')).toBe('https://maker.example/tool');
  });
});

describe('the video', () => {
  it('is a facade until played, then the no-cookie player; the overlay closes on Esc', async () => {
    // The inline video is there from 1280 px only.
    stubWidth(1280);
    await page();
    const slot = screen.getByTestId('video-slot');
    expect(slot.querySelector('iframe')).toBeNull();
    fireEvent.click(await within(slot).findByRole('button', { name: /Play video/ }));
    expect(slot.querySelector('iframe')?.getAttribute('src')).toMatch(
      /^https:\/\/www\.youtube-nocookie\.com\/embed\/aqz-KE-bpKQ\?/,
    );

    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Video' }),
    );
    const overlay = await screen.findByRole('dialog', { name: 'Video' });
    expect(overlay.querySelector('iframe')).toBeNull();
    fireEvent.click(within(overlay).getByRole('button', { name: /Play video/ }));
    expect(overlay.querySelector('iframe')?.getAttribute('src')).toContain('youtube-nocookie.com/embed/');
    fireEvent.keyDown(document, { key: 'Escape' });
    await closeAnimation();
    expect(screen.queryByRole('dialog', { name: 'Video' })).toBeNull();
  });
});

describe('the footer', () => {
  it('has the social link, the support e-mail, the chat link and the copyright line', async () => {
    await page();
    const footer = screen.getByRole('contentinfo');
    expect(
      within(footer)
        .getByRole('link', { name: /Follow us/ })
        .getAttribute('href'),
    ).toBe(demoBranding.links.social);
    expect(within(footer).getByRole('link', { name: demoBranding.supportEmail }).getAttribute('href')).toBe(
      `mailto:${demoBranding.supportEmail}`,
    );
    expect(
      within(footer)
        .getByRole('link', { name: /Join the chat/ })
        .getAttribute('href'),
    ).toBe(demoBranding.links.chat);
    expect(footer.textContent).toContain('© 2025 Manaboard DAO');
  });
});
