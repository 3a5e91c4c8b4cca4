import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bytesOf } from '../../http/representations';
import { LeaderboardCache } from './leaderboard-cache';

/**
 * The staleness the cache promises, with the settings the records page runs with as users get it
 * (records.routes.ts: `cacheMs` 5,000, so the stamp is asked at most once a second and an answer lives 5 s): an
 * answer is never older than `maxAgeMs`, and a change of the totals stamp is seen within `checkMs`.
 */
describe('LeaderboardCache', () => {
  let stamp = 'v1';
  let builds = 0;
  const build = async () => ({ built: ++builds });
  const cache = () =>
    new LeaderboardCache(async () => stamp, { checkMs: 1_000, maxEntries: 10, maxAgeMs: 5_000 });
  const body = async (c: LeaderboardCache) => {
    const entry = c.peek('k') ?? (await c.get('k', build));
    return JSON.parse(bytesOf(entry.plain).toString('utf8')) as { built: number };
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-27T10:00:00Z'));
    stamp = 'v1';
    builds = 0;
  });
  afterEach(() => vi.useRealTimers());

  it('serves one answer while the stamp holds, and builds a new one once it is 5 s old', async () => {
    const c = cache();
    expect(await body(c)).toEqual({ built: 1 });
    vi.advanceTimersByTime(4_999);
    expect(await body(c)).toEqual({ built: 1 });
    vi.advanceTimersByTime(1);
    expect(await body(c)).toEqual({ built: 2 });
  });

  it('drops its answers within a second of a change of the totals stamp', async () => {
    const c = cache();
    expect(await body(c)).toEqual({ built: 1 });
    stamp = 'v2';
    vi.advanceTimersByTime(999);
    expect(await body(c)).toEqual({ built: 1 });
    vi.advanceTimersByTime(1);
    expect(await body(c)).toEqual({ built: 2 });
  });

  it('serves the last answer, however old, while the database fails, and builds again once it answers', async () => {
    let down = false;
    const c = new LeaderboardCache(
      async () => {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return stamp;
      },
      { checkMs: 1_000, maxEntries: 10, maxAgeMs: 5_000 },
    );
    expect(await body(c)).toEqual({ built: 1 });
    down = true;
    vi.advanceTimersByTime(60_000);
    expect(await body(c)).toEqual({ built: 1 });
    expect(c.stale).toBe(1);
    // A key never stored has nothing to fall back on: the error stands.
    await expect(c.get('other', build)).rejects.toThrow(/ECONNREFUSED/);
    // The stamp answers but the build fails: the last answer again.
    down = false;
    const failing = async () =>
      Promise.reject(new Error('terminating connection due to administrator command'));
    expect(JSON.parse(bytesOf((await c.get('k', failing)).plain).toString('utf8'))).toEqual({ built: 1 });
    expect(await body(c)).toEqual({ built: 2 });
  });

  it('builds every time with a maximum age of 0 (LEADERBOARD_CACHE=off)', async () => {
    const c = new LeaderboardCache(async () => stamp, { checkMs: 0, maxEntries: 10, maxAgeMs: 0 });
    expect(await body(c)).toEqual({ built: 1 });
    expect(await body(c)).toEqual({ built: 2 });
  });
});
