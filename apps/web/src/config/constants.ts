/** Timings and sizes of SPEC §9, in one place (CSS-only timings say so where they live). */

/** Every HTTP call gives up after 10 s ("Request timeout", 408). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** A modal is mounted first, then made visible 10 ms later so its fade-in runs. */
export const MODAL_BACKDROP_DELAY_MS = 10;
/** A closing modal fades for 300 ms and is then unmounted (matches `duration-300` in modal.tsx). */
export const MODAL_CLOSE_MS = 300;
/** Server data stays fresh for 5 minutes (SPEC §7). */
export const QUERY_STALE_TIME_MS = 5 * 60 * 1000;
/**
 * The main page waits at most this long for its first screen's data before painting (loading states then
 * stand in for whatever has not arrived).
 */
export const FIRST_SCREEN_WAIT_MS = 1000;
/** What's New asks for page 1 of 50 announcements. */
export const ANNOUNCEMENTS_PAGE = 1;
export const ANNOUNCEMENTS_PAGE_SIZE = 50;
/** The auth-return screen waits 1.5 s before going home (its 1 s image fade is `animate-fade-in-1s`). */
export const AUTH_RETURN_REDIRECT_MS = 1500;

/** Per-browser storage keys (SPEC §3 leaves their names to us). */
export const STORAGE_KEYS = {
  browserId: 'manaboard.userId',
  csrfToken: 'manaboard.csrfToken',
  pendingReferrer: 'manaboard.pendingReferrer',
} as const;
/** Request headers the referral service reads (SPEC §6–§7). */
export const USER_ID_HEADER = 'X-User-Id';
export const CSRF_HEADER = 'X-CSRF-Token';
/** A CSRF token is trusted for 23 hours, then cleared and refetched. */
export const CSRF_TOKEN_LIFETIME_MS = 23 * 60 * 60 * 1000;
/** Retry helpers (apply, status, account): 3 attempts, waiting 1 s × the attempt number between them. */
export const RETRY_ATTEMPTS = 3;
export const RETRY_DELAY_UNIT_MS = 1000;
/** The account state is re-checked every 30 s (and on storage events and window focus). */
export const ACCOUNT_RECHECK_MS = 30_000;
/** Auth-return polling: at most 30 checks, 500 ms doubling every 10 checks, capped at 2 s. */
export const AUTH_POLL_MAX_CHECKS = 30;
export const AUTH_POLL_BASE_DELAY_MS = 500;
export const AUTH_POLL_DOUBLE_EVERY = 10;
export const AUTH_POLL_MAX_DELAY_MS = 2000;
/** A network error while polling is retried after 2 s. */
export const AUTH_POLL_NETWORK_RETRY_MS = 2000;
/** Notices and messages stay 5 s; the "Copied" flag 2 s; account data is refreshed 1 s after an apply. */
export const MESSAGE_DISPLAY_MS = 5000;
export const COPIED_FLAG_MS = 2000;
export const APPLY_SUCCESS_REFRESH_MS = 1000;
/**
 * The card's numbers until the programme rules arrive (SPEC §9 defaults; the rules file ships the same): the
 * card shows the rules' own figures as soon as GET /api/programme answers.
 */
export const DEFAULT_REFERRAL_REWARD_MANA = 50;
export const DEFAULT_LINKED_MULTIPLIER = 3;
/** Leaderboard (SPEC §5, §7, §9): pages of 20, own stats searched with limit 10, search debounced 600 ms. */
export const LEADERBOARD_PAGE_SIZE = 20;
export const OWN_STATS_SEARCH_LIMIT = 10;
export const SEARCH_DEBOUNCE_MS = 600;
/** Post search results are filtered client-side and cut to 20. */
export const POST_SEARCH_CUT = 20;
/** X's embed script: polled every 100 ms up to 50 tries, then the embed's size every 200 ms for 15 s. */
export const EMBED_SCRIPT_POLL_MS = 100;
export const EMBED_SCRIPT_POLL_TRIES = 50;
export const EMBED_SIZE_CHECK_MS = 200;
export const EMBED_SIZE_CHECK_FOR_MS = 15_000;
/** An embed counts as valid only from 100 px tall. */
export const EMBED_MIN_HEIGHT_PX = 100;
