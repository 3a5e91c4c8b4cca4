/** Timings and sizes of SPEC §9, in one place (CSS-only timings say so where they live). */

/** Every HTTP call gives up after 10 s ("Request timeout", 408). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** A modal is mounted first, then made visible 10 ms later so its fade-in runs. */
export const MODAL_BACKDROP_DELAY_MS = 10;
/** A closing modal fades for 300 ms and is then unmounted (matches `duration-300` in modal.tsx). */
export const MODAL_CLOSE_MS = 300;
/** Server data stays fresh for 5 minutes (SPEC §7). */
export const QUERY_STALE_TIME_MS = 5 * 60 * 1000;
/** What's New asks for page 1 of 50 announcements. */
export const ANNOUNCEMENTS_PAGE = 1;
export const ANNOUNCEMENTS_PAGE_SIZE = 50;
/** The auth-return screen waits 1.5 s before going home (its 1 s image fade is `animate-fade-in-1s`). */
export const AUTH_RETURN_REDIRECT_MS = 1500;
