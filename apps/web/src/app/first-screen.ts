import type { AccountInfo } from '@manaboard/contract';
import type { QueryClient } from '@tanstack/react-query';
import { FIRST_SCREEN_WAIT_MS } from '../config/constants';
import { accountKeys, accountQueryOptions, isConnected } from '../lib/account';
import { brandingQueryOptions } from '../lib/branding';
import { programmeQueryOptions } from '../lib/programme';
import { authorsQueryOptions } from '../features/leaderboard/api/get-authors';
import { preloadLinkedCard } from '../features/mana-card/components/lazy-linked-card';
import { preloadVideoFacade } from '../features/video/components/lazy-video-facade';
import { XL_UP } from '../lib/use-media-query';
import { publicConfigQueryOptions } from '../lib/public-config';

/** The leaderboard the main page opens on: All Time, no search (SPEC §2). */
const openingBoard = { weekly: false, search: '' };

/** The main page's paths (SPEC §2); the auth-return and 404 pages need none of its data. */
export function isMainPagePath(pathname: string): boolean {
  return pathname === '/' || /^\/r\/[^/]+\/?$/.test(pathname);
}

/**
 * Starts the calls the main page's first screen needs and resolves when they have settled or after `waitMs`,
 * whichever comes first, so the page paints once, whole, instead of in a burst of loading states each followed by
 * its own render (index.html preloads the same URLs, so their answers are usually in before the script runs).
 * A browser with no id yet is answered without a call (SPEC §4; the public reads are anonymous and give it none);
 * a linked member's card chunk is part of the wait. A failed call is left to its query's error state and retry;
 * nothing here throws.
 */
export async function prefetchFirstScreen(
  client: QueryClient,
  pathname: string,
  waitMs: number = FIRST_SCREEN_WAIT_MS,
): Promise<void> {
  if (!isMainPagePath(pathname)) return;
  const calls = Promise.allSettled([
    // A linked member's card is its own chunk: fetched as soon as the check says linked.
    client
      .prefetchQuery(accountQueryOptions())
      .then(() =>
        isConnected(client.getQueryData<AccountInfo>(accountKeys.me())) ? preloadLinkedCard() : undefined,
      ),
    client.prefetchQuery(brandingQueryOptions()),
    client.prefetchQuery(publicConfigQueryOptions()),
    client.prefetchQuery(programmeQueryOptions()),
    client.prefetchInfiniteQuery(authorsQueryOptions(openingBoard)),
    // From 1280 px the video sits beside the card: its chunk is part of the first screen there.
    window.matchMedia?.(XL_UP).matches ? preloadVideoFacade() : undefined,
  ]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
  });
  await Promise.race([calls, deadline]);
  clearTimeout(timer);
}
