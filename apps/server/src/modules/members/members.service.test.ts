import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberSearchQuerySchema } from '@manaboard/contract/admin';
import type { DatabaseHandle } from '../../db/database';
import { trackedMember } from '../../test/members-world';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { submitAppeal } from '../appeals/appeals.service';
import { upsertAccount } from '../linking/accounts.repository';
import { setAuthorDisqualified } from '../mana/disqualification.service';
import { upsertPosts } from '../mana/posts.repository';
import { recomputeTotalsWithRules } from '../mana/rescore.service';
import { insertReferral } from '../referrals/referrals.repository';
import type { LeaderboardDeps } from '../leaderboard/leaderboard.service';
import { memberDetail, searchMembers } from './members.service';

const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const post = (id: string, authorId: string, likes: number) => ({
  id,
  authorId,
  text: '#ManaBoard',
  createdAt: new Date(NOW.getTime() - HOUR),
  kind: 'original' as const,
  likes,
  replies: 0,
  reposts: 0,
  quotes: 0,
});

describe.each(testDatabaseKinds())('members service on %s', (kind) => {
  let database: DatabaseHandle;
  let deps: LeaderboardDeps;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    const db = database.db;
    deps = { db, now: () => NOW.getTime(), postUrl: (h, id) => `https://x.test/${h}/status/${id}` };
    const ann = await trackedMember(db, { id: '201', handle: 'mana_ann' }, NOW);
    const bob = await trackedMember(db, { id: '202', handle: 'bob_mana' }, NOW);
    await trackedMember(db, { id: '203', handle: 'carol' }, NOW);
    // A member who linked but never posted: an account and no author.
    const dan = await upsertAccount(db, {
      networkUserId: '204',
      handle: 'mana_dan',
      avatarUrl: null,
      networkCreatedAt: null,
      followers: 3,
      sealedAccessToken: 'sealed',
      sealedRefreshToken: null,
      tokenExpiresAt: NOW,
      scopes: '',
      now: NOW,
    });
    await insertReferral(db, {
      refereeAccountId: bob.account.id,
      referrerAccountId: ann.account.id,
      rewardMana: 50,
      createdAt: new Date(NOW.getTime() - 2 * HOUR),
    });
    await insertReferral(db, {
      refereeAccountId: dan.id,
      referrerAccountId: ann.account.id,
      rewardMana: 50,
      createdAt: new Date(NOW.getTime() - HOUR),
    });
    await upsertPosts(db, [post('9001', '201', 4), post('9002', '202', 10)], NOW);
    await recomputeTotalsWithRules(db, NOW);
  }, 180_000);
  afterAll(async () => {
    await database.close();
  });

  const search = (q: string, extra: Record<string, unknown> = {}) =>
    searchMembers(deps, memberSearchQuerySchema.parse({ q, ...extra }));

  it('finds authors and linked-only members by substring, exact and prefix first, paginated', async () => {
    const found = await search('@MANA');
    expect(found.total).toBe(3);
    expect(found.members.map((m) => [m.handle, m.tracked, m.linked])).toEqual([
      ['mana_ann', true, true],
      ['mana_dan', false, false],
      ['bob_mana', true, true],
    ]);
    // 4 likes at weight 1 before linking, and bob's referral (dan never bound a browser: his does not count yet).
    expect(found.members[0]).toMatchObject({ mana: 4 + 50, rank: 1, disqualified: false });
    expect(found.members[1]).toMatchObject({ mana: null, rank: null });
    const second = await search('mana', { limit: 1, offset: 1 });
    expect(second).toEqual({ members: [found.members[1]], total: 3 });
    expect((await search('bob_mana')).members.map((m) => m.handle)).toEqual(['bob_mana']);
    expect(await search('100%_')).toEqual({ members: [], total: 0 });
    expect(memberSearchQuerySchema.safeParse({ q: '  ' }).success).toBe(false);
    expect(memberSearchQuerySchema.safeParse({ q: 'a', limit: 101 }).success).toBe(false);
  });

  it('shows a member’s page: breakdown, referrals both ways, disqualification, appeals and history', async () => {
    await setAuthorDisqualified(deps.db, {
      handle: 'bob_mana',
      disqualified: true,
      reason: 'Bought likes',
      actor: 'op:zoe',
      now: NOW,
    });
    const bobAccount = await deps.db
      .selectFrom('accounts')
      .selectAll()
      .where('network_user_id', '=', '202')
      .executeTakeFirstOrThrow();
    await submitAppeal(deps.db, { account: bobAccount, text: 'I never bought a like.', now: NOW });

    const bob = await memberDetail(deps, '202');
    expect(bob.profile).toMatchObject({ handle: 'bob_mana' });
    expect(bob.account).toMatchObject({ handle: 'bob_mana', browsers: 1, linkedAt: NOW.toISOString() });
    expect(bob.breakdown?.lines.map((l) => [l.type, l.mana])).toEqual([['post', 10]]);
    expect(bob.referrals.referredBy).toMatchObject({ handle: 'mana_ann', status: 'void', rewardMana: 50 });
    expect(bob.referrals.referred).toEqual([]);
    expect(bob.disqualification).toEqual({
      disqualified: true,
      reason: 'Bought likes',
      by: 'op:zoe',
      at: NOW.toISOString(),
    });
    expect(bob.appeals.map((a) => a.text)).toEqual(['I never bought a like.']);
    expect(bob.history.map((h) => [h.action, h.actor])).toEqual([
      ['appeal.submit', `account:${bobAccount.id}`],
      ['author.disqualify', 'op:zoe'],
    ]);

    const ann = await memberDetail(deps, '201');
    expect(ann.referrals.referredBy).toBeNull();
    expect(ann.referrals.referred.map((r) => [r.handle, r.status])).toEqual([
      ['mana_dan', 'credited'],
      ['bob_mana', 'void'],
    ]);
    expect(ann.disqualification.disqualified).toBe(false);

    const dan = await memberDetail(deps, '204');
    expect(dan).toMatchObject({
      profile: null,
      breakdown: null,
      account: { handle: 'mana_dan', browsers: 0 },
    });
    await expect(memberDetail(deps, '999')).rejects.toMatchObject({ status: 404 });
  });
});
