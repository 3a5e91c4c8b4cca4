import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountKeys } from '../lib/account';
import { brandingQueryOptions } from '../lib/branding';
import { brandingRoutes, testProgramme } from '../test/demo-branding';
import { programmeQueryOptions } from '../lib/programme';
import { authorsQueryOptions } from '../features/leaderboard/api/get-authors';
import { community } from '../test/leaderboard-fixtures';
import { getBrowserId } from '../lib/browser-id';
import { createQueryClient } from '../lib/query-client';
import { publicConfigKeys } from '../lib/public-config';
import { fakeReferralService, ok, requestsTo } from '../test/fake-referral-service';
import { isMainPagePath, prefetchFirstScreen } from './first-screen';

// The chunks the first screen warms, observed (their loading is React.lazy's business, tested elsewhere).
const preloads = vi.hoisted(() => ({
  linkedCard: vi.fn(() => Promise.resolve()),
  videoFacade: vi.fn(() => Promise.resolve()),
}));
vi.mock('../features/mana-card/components/lazy-linked-card', () => ({
  preloadLinkedCard: preloads.linkedCard,
}));
vi.mock('../features/video/components/lazy-video-facade', () => ({
  preloadVideoFacade: preloads.videoFacade,
}));

const board = {
  success: true,
  data: { authors: [], total: 0, period: 'all', updatedAt: null },
};
/** Every first-screen call answered (the public config answers by default). */
const firstScreenRoutes = { ...brandingRoutes(), 'GET /api/mana': community(board) };
// Far beyond the test's own time-out: a test that passes was not released by the deadline.
const NO_DEADLINE = 60_000;
const openingBoardKey = authorsQueryOptions({ weekly: false, search: '' }).queryKey;

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  preloads.linkedCard.mockClear();
  preloads.videoFacade.mockClear();
  localStorage.clear();
});

describe('isMainPagePath', () => {
  it('is the home page and referral links, nothing else', () => {
    expect(isMainPagePath('/')).toBe(true);
    expect(isMainPagePath('/r/alice')).toBe(true);
    expect(isMainPagePath('/r/alice/')).toBe(true);
    expect(isMainPagePath('/r/')).toBe(false);
    expect(isMainPagePath('/auth/callback')).toBe(false);
    expect(isMainPagePath('/linked')).toBe(false);
    expect(isMainPagePath('/nowhere')).toBe(false);
  });
});

describe('prefetchFirstScreen', () => {
  it('fills the cache with the first screen before the page renders', async () => {
    const fetchMock = fakeReferralService(firstScreenRoutes);
    const client = createQueryClient();
    await prefetchFirstScreen(client, '/', NO_DEADLINE);

    expect(client.getQueryData(openingBoardKey)).toMatchObject({ pages: [board.data] });
    expect(client.getQueryData(publicConfigKeys.all)).toMatchObject({ data: { socialNetwork: 'x' } });
    expect(client.getQueryData(brandingQueryOptions().queryKey)).toMatchObject({
      data: { programmeName: 'Manaboard' },
    });
    expect(client.getQueryData(programmeQueryOptions().queryKey)).toMatchObject({ data: testProgramme });
    const called = fetchMock.mock.calls.map(([input]) => new URL(input, 'http://localhost').pathname);
    expect(called).toEqual(
      expect.arrayContaining(['/api/public/branding', '/api/public/config', '/api/programme', '/api/mana']),
    );
    // The URL index.html preloads, so the browser hands the preloaded answer over.
    const manaUrl = fetchMock.mock.calls.find(([input]) => input.startsWith('/api/mana'))?.[0];
    expect(manaUrl).toBe('/api/mana?limit=20');
  });

  it('answers a browser without an id as not connected, without asking (before other calls give it one)', async () => {
    const fetchMock = fakeReferralService(firstScreenRoutes);
    const client = createQueryClient();
    await prefetchFirstScreen(client, '/r/alice', NO_DEADLINE);
    expect(client.getQueryData(accountKeys.me())).toEqual({
      connected: false,
      handle: null,
      avatarUrl: null,
    });
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(0);
  });

  it("checks a known browser's account", async () => {
    getBrowserId();
    const alice = { connected: true, handle: 'alice', avatarUrl: null };
    const fetchMock = fakeReferralService({ ...firstScreenRoutes, 'GET /me/account': ok(alice) });
    const client = createQueryClient();
    await prefetchFirstScreen(client, '/', NO_DEADLINE);
    expect(requestsTo(fetchMock, 'GET /me/account')).toHaveLength(1);
    expect(client.getQueryData(accountKeys.me())).toEqual(alice);
    expect(preloads.linkedCard).toHaveBeenCalledTimes(1);
  });

  it('loads no linked card for a browser that is not linked, and no inline video on a narrow screen', async () => {
    getBrowserId();
    const notLinked = { connected: false, handle: null, avatarUrl: null };
    fakeReferralService({ ...firstScreenRoutes, 'GET /me/account': ok(notLinked) });
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query }));
    await prefetchFirstScreen(createQueryClient(), '/', NO_DEADLINE);
    expect(preloads.linkedCard).not.toHaveBeenCalled();
    expect(preloads.videoFacade).not.toHaveBeenCalled();
  });

  it('loads the inline video with the first screen from 1280 px', async () => {
    fakeReferralService(firstScreenRoutes);
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(min-width: 1280px)',
      media: query,
    }));
    await prefetchFirstScreen(createQueryClient(), '/', NO_DEADLINE);
    expect(preloads.videoFacade).toHaveBeenCalledTimes(1);
  });

  it('stops waiting after waitMs and leaves the slow call to its query', async () => {
    vi.useFakeTimers();
    fakeReferralService({
      ...firstScreenRoutes,
      'GET /api/mana': () => new Promise<Response>(() => undefined),
    });
    const client = createQueryClient();
    let done = false;
    void prefetchFirstScreen(client, '/', 1000).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
    expect(client.getQueryState(openingBoardKey)?.fetchStatus).toBe('fetching');
  });

  it('asks nothing on the other pages', async () => {
    const fetchMock = fakeReferralService({});
    await prefetchFirstScreen(createQueryClient(), '/auth/callback');
    await prefetchFirstScreen(createQueryClient(), '/linked');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
