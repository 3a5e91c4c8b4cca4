import type { ManaAuthor, TrackedPost } from '@manaboard/contract';
import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { fakeReferralService, ok, type FakeRoute } from './fake-referral-service';

/** A community-API success body. */
export const community = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

export function author(rank: number, overrides: Partial<ManaAuthor> = {}): ManaAuthor {
  return {
    authorId: String(1000 + rank),
    authorName: `author_${rank}`,
    displayName: `Author ${rank}`,
    profileImageUrl: null,
    rank,
    totalPosts: rank,
    totalMana: 100_000 - rank * 1000,
    likes: 10 * rank,
    retweets: 2 * rank,
    replies: 3 * rank,
    quotes: rank,
    linked: false,
    ...overrides,
  };
}

/** `/api/mana` as the server answers it: ranks `offset+1…` of `total`, or the authors given for a search. */
export function manaRoute(total: number, found: (search: string) => ManaAuthor[] = () => []): FakeRoute {
  return ({ url }) => {
    const limit = Number(url.searchParams.get('limit'));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const search = url.searchParams.get('search');
    const authors = search
      ? found(search)
      : Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
          author(offset + i + 1),
        );
    return community({
      success: true,
      data: { authors, total: search ? authors.length : total, period: 'all', updatedAt: null },
    });
  };
}

export function post(n: number, overrides: Partial<TrackedPost> = {}): TrackedPost {
  return {
    id: String(5000 + n),
    url: `https://x.com/author_${n}/status/${5000 + n}`,
    content: `post number ${n} #ManaBoard`,
    authorName: `author_${n}`,
    authorId: String(1000 + n),
    profileImageUrl: null,
    createdAt: new Date(Date.now() - n * 3_600_000).toISOString(),
    likes: 1200 + n,
    retweets: 3,
    replies: 4,
    quotes: 5,
    mana: 1234 + n,
    final: n % 2 === 0,
    overDailyLimit: false,
    ...overrides,
  };
}

/** The community API and referral service of these tests, nobody linked unless `/me/account` says so. */
export function serveBoard(routes: Record<string, FakeRoute | FakeRoute[]> = {}) {
  return fakeReferralService({
    'GET /me/account': ok({ connected: false, handle: null, avatarUrl: null }),
    'GET /api/mana': manaRoute(45),
    ...routes,
  });
}

/** The query strings of the calls made to `path`. */
export function queriesTo(
  fetchMock: ReturnType<typeof fakeReferralService>,
  path: string,
): URLSearchParams[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost'))
    .filter((url) => url.pathname === path)
    .map((url) => url.searchParams);
}

/** A screen `width` px wide, as matchMedia's min-width queries see it. */
export function stubWidth(width: number): void {
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    return {
      matches: min ? width >= Number(min[1]) : false,
      media: query,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
    };
  });
}

/** Lets fetches and React settle under fake timers. */
export const settle = (ms = 10) => act(() => vi.advanceTimersByTimeAsync(ms));
