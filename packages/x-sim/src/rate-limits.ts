/**
 * The endpoints the simulation limits, with X's windows per app (bearer token) and per user (user token)
 * (https://docs.x.com/x-api/fundamentals/rate-limits). liked_tweets and users/me need user context.
 */
export const defaultLimits = {
  'search/recent': { app: 450, user: 300 },
  tweets: { app: 3500, user: 5000 },
  retweeted_by: { app: 75, user: 75 },
  quote_tweets: { app: 75, user: 75 },
  liked_tweets: { app: 75, user: 75 },
  'users/by/username': { app: 300, user: 900 },
  'users/me': { app: 75, user: 75 },
} as const;

/** An endpoint with its own rate-limit window (also the names faults target). */
export type LimitedEndpoint = keyof typeof defaultLimits;
/** X's window: 15 minutes. */
export const WINDOW_MS = 15 * 60 * 1000;

/** What `x-rate-limit-limit` says when limits are off (X always sends the headers). */
const UNLIMITED = 1_000_000_000;

type Window = { start: number; used: number };

/**
 * Fixed windows per endpoint and caller (the app, or one user), on the simulated clock, so a client that
 * waits until `x-rate-limit-reset` (epoch seconds) by advancing the clock gets through again. `scale`
 * multiplies every limit (tests use tiny ones, at least 1); `Infinity` turns limits off (benchmarks).
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly now: () => number,
    private readonly scale = 1,
    private readonly windowMs = WINDOW_MS,
  ) {}

  /**
   * Counts a call of `caller` ('app' or 'user:<id>'). A storm refuses it without spending the window. Says
   * whether it is allowed and the header values to send either way.
   */
  take(
    endpoint: LimitedEndpoint,
    caller: string,
    storm = false,
  ): { allowed: boolean; headers: Record<string, string> } {
    const base = defaultLimits[endpoint][caller === 'app' ? 'app' : 'user'];
    const limit = Number.isFinite(this.scale) ? Math.max(1, Math.round(base * this.scale)) : UNLIMITED;
    const key = `${endpoint}:${caller}`;
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.windowMs) {
      window = { start: now, used: 0 };
      this.windows.set(key, window);
    }
    const allowed = !storm && window.used < limit;
    if (allowed) window.used++;
    return {
      allowed,
      headers: {
        'x-rate-limit-limit': String(limit),
        'x-rate-limit-remaining': String(storm ? 0 : limit - window.used),
        'x-rate-limit-reset': String(Math.ceil((window.start + this.windowMs) / 1000)),
      },
    };
  }
}
