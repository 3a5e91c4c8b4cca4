import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { fairnessJob } from '../../jobs/fairness.job';
import type { SocialNetwork } from '../../social/social-network';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { upsertAccount } from '../linking/accounts.repository';
import { upsertAuthors } from '../mana/authors.repository';
import { upsertPosts } from '../mana/posts.repository';
import { insertReferral } from '../referrals/referrals.repository';
import {
  listFairnessFlags,
  memberFairnessFlags,
  recomputeFairnessFlags,
  reviewFairnessFlag,
} from './fairness.service';

const NOW = new Date('2026-11-24T12:00:00Z');
const DAY = 86_400_000;

describe.each(testDatabaseKinds())('fairness service (%s)', (kind) => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function account(db: DatabaseHandle['db'], id: string, ageDays: number) {
    return upsertAccount(db, {
      networkUserId: id,
      handle: `h${id}`,
      avatarUrl: null,
      networkCreatedAt: new Date(NOW.getTime() - 5 * DAY - ageDays * DAY),
      followers: 10,
      sealedAccessToken: 'sealed',
      sealedRefreshToken: null,
      tokenExpiresAt: new Date(NOW.getTime() + DAY),
      scopes: '',
      now: new Date(NOW.getTime() - 5 * DAY),
    });
  }

  it('flags a referral chain of fresh accounts and a spike, says why, keeps reviews, audits them', async () => {
    database = await openTestDatabase(kind);
    const db = database.db;
    // root (old) → a, b (2 and 3 days old when linking) → a → c, d (1 day old); honest → x, y (years old).
    const ids: Record<string, string> = {};
    for (const [id, age] of [
      ['101', 800],
      ['102', 2],
      ['103', 3],
      ['104', 1],
      ['105', 1],
      ['201', 900],
      ['202', 700],
      ['203', 1500],
    ] as const)
      ids[id] = (await account(db, id, age)).id;
    const refer = (referrer: string, referee: string) =>
      insertReferral(db, {
        referrerAccountId: ids[referrer] as string,
        refereeAccountId: ids[referee] as string,
        rewardMana: 10,
        createdAt: new Date(NOW.getTime() - 5 * DAY),
      });
    for (const [r, e] of [
      ['101', '102'],
      ['101', '103'],
      ['102', '104'],
      ['102', '105'],
      ['201', '202'],
      ['201', '203'],
    ] as const)
      await refer(r, e);
    // An author with a steady week and one day forty times their median.
    await upsertAuthors(
      db,
      [
        {
          id: '301',
          handle: 'spiky',
          displayName: 'Spiky',
          avatarUrl: null,
          firstTrackedAt: new Date(NOW.getTime() - 9 * DAY),
        },
      ],
      NOW,
    );
    const daily = [10, 12, 9, 11, 10, 400, 8];
    await upsertPosts(
      db,
      daily.map((likes, i) => ({
        id: `p${i}`,
        authorId: '301',
        text: '#ManaBoard',
        createdAt: new Date(NOW.getTime() - (8 - i) * DAY),
        kind: 'original' as const,
        likes,
        replies: 0,
        reposts: 0,
        quotes: 0,
      })),
      NOW,
    );

    const run = await recomputeFairnessFlags(db, NOW);
    expect(run.flags).toEqual({ ring: 0, referral_chain: 1, spike: 1 });
    const { flags, total } = await listFairnessFlags(db, { limit: 10, offset: 0 });
    expect(total).toBe(2);
    const chain = flags.find((f) => f.kind === 'referral_chain');
    expect(chain).toMatchObject({ subjectId: '101', handle: 'h101', score: 1 });
    expect(chain?.reason).toBe(
      '4 of the 4 accounts referred through @h101 (2 levels deep, up to 2 wide) were under 30 days old when they linked',
    );
    expect(chain?.evidence).toMatchObject({ depth: 2, width: 2, fresh: 4 });
    const spike = flags.find((f) => f.kind === 'spike');
    expect(spike).toMatchObject({ subjectId: '301', handle: 'spiky' });
    expect(spike?.reason).toMatch(
      /^On \d{4}-\d\d-\d\d @spiky's posts received 400 engagements, 40× their median day \(10\)/,
    );
    expect((await listFairnessFlags(db, { kind: 'spike', limit: 10, offset: 0 })).total).toBe(1);

    // An operator reviews the chain: stored with the flag, audited with before and after, kept on recompute.
    const reviewed = await reviewFairnessFlag(
      db,
      { subjectId: '101', kind: 'referral_chain', note: 'Friends from one class; fine' },
      { actor: 'admin:ops', now: NOW },
    );
    expect(reviewed.review).toEqual({
      at: NOW.toISOString(),
      by: 'admin:ops',
      note: 'Friends from one class; fine',
    });
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'fairness.review')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'admin:ops', subject: 'referral_chain:101' });
    expect(audit[0]?.details).toMatchObject({ before: null, after: { by: 'admin:ops' } });
    await recomputeFairnessFlags(db, new Date(NOW.getTime() + DAY));
    expect((await memberFairnessFlags(db, '101')).flags[0]?.review?.note).toBe(
      'Friends from one class; fine',
    );
    await expect(
      reviewFairnessFlag(db, { subjectId: '202', kind: 'ring', note: 'x' }, { actor: 'admin:ops', now: NOW }),
    ).rejects.toMatchObject({ status: 404 });

    // The worker's job runs the same service; a withdrawn signal leaves the list.
    await db.deleteFrom('posts').where('id', '=', 'p5').execute();
    const network = {} as SocialNetwork; // the job reads only stored data
    const outcome = await fairnessJob.run({
      db,
      network,
      clock: { now: () => NOW.getTime(), sleep: async () => undefined },
      log: pino({ level: 'silent' }),
    });
    expect(outcome).toMatchObject({ calls: 0, counts: { ring: 0, referral_chain: 1, spike: 0 } });
    expect((await memberFairnessFlags(db, '301')).flags).toEqual([]);
  }, 90_000);
});
