import { act, type RenderResult } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { getBrowserId } from '../../../lib/browser-id';
import { fakeReferralService, ok, type FakeRoute } from '../../../test/fake-referral-service';
import { noBreakdown } from '../../../test/no-breakdown';
import { renderWithProviders } from '../../../test/render-with-providers';
import { useAccount } from '../../../lib/account';
import { LinkedCard } from './linked-card';

/** What the linked card's tests share: a referral service for member alice, and the card as the page shows it. */
export const link = ok({ slug: 'alice', url: 'http://localhost:3000/r/@alice' });
export const notReferred = ok({ status: 'not_referred', referrerHandle: null });

export function serve(routes: Record<string, FakeRoute | FakeRoute[]> = {}) {
  return fakeReferralService({
    'POST /referrals/link': link,
    'GET /referrals/status': notReferred,
    'GET /me/account': ok({ connected: true, handle: 'alice', avatarUrl: null }),
    ...routes,
  });
}

/** Lets fetches and React settle under fake timers. */
export const settle = (ms = 10) => act(() => vi.advanceTimersByTimeAsync(ms));

/** The card as the main page shows it: the page also observes the account (so a refresh refetches it). */
function PageLike({ avatarUrl }: { avatarUrl: string | null }) {
  useAccount();
  return <LinkedCard handle="alice" avatarUrl={avatarUrl} breakdown={noBreakdown} />;
}

export const card = (avatarUrl: string | null = null): RenderResult =>
  renderWithProviders(<PageLike avatarUrl={avatarUrl} />);

/** Fake timers and a browser id for each test; storage and the clipboard stub cleared after it. */
export function registerCardTestLifecycle(): void {
  beforeEach(() => {
    vi.useFakeTimers();
    getBrowserId();
  });
  afterEach(() => {
    localStorage.clear();
    Reflect.deleteProperty(navigator, 'clipboard');
  });
}
