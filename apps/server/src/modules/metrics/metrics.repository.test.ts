import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { upsertAuthors } from '../mana/authors.repository';
import { applyMetrics, upsertPosts } from '../mana/posts.repository';
import { activeRules } from '../programme/programme.service';
import { recomputeDirtyTotals } from '../mana/totals.service';
import { totalsLagSeconds } from './metrics.repository';

const NOW = new Date('2026-11-20T12:00:00Z');

/**
 * The totals lag reads 0 only when the board counts every stored change: issue 32's fault runs compared the board
 * with a rebuild once it read 0, while likes on known posts (queued per-post changes, no author flagged) still
 * waited for the next totals run.
 */
describe.each(testDatabaseKinds())('the totals lag (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('is above 0 while a post’s changed counts wait in the queue, and 0 once the totals counted them', async () => {
    const db = database.db;
    await sql`truncate posts, authors, mana_totals, post_metric_changes`.execute(db);
    const firstTrackedAt = new Date(NOW.getTime() - 3_600_000);
    await upsertAuthors(
      db,
      [{ id: '101', handle: 'a', displayName: 'A', avatarUrl: null, firstTrackedAt }],
      NOW,
    );
    await upsertPosts(
      db,
      [
        {
          id: '5001',
          authorId: '101',
          text: '#ManaBoard',
          createdAt: firstTrackedAt,
          kind: 'original',
          likes: 1,
          replies: 0,
          reposts: 0,
          quotes: 0,
        },
      ],
      NOW,
    );
    expect(await totalsLagSeconds(db)).toBeGreaterThan(0);
    const active = await activeRules(db);
    await recomputeDirtyTotals(db, active, NOW);
    expect(await totalsLagSeconds(db)).toBe(0);
    // A like on a known post (what a stream batch stores): no author flagged, one change queued.
    await applyMetrics(db, [{ id: '5001', likes: 2, replies: 0, reposts: 0, quotes: 0, final: false }], NOW);
    expect(await totalsLagSeconds(db)).toBeGreaterThan(0);
    await recomputeDirtyTotals(db, active, NOW);
    expect(await totalsLagSeconds(db)).toBe(0);
  });
});
