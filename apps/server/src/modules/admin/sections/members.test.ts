import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema, memberStandingResponseSchema } from '@manaboard/contract';
import {
  adminAuditResponseSchema,
  adminMemberResponseSchema,
  adminMembersResponseSchema,
  adminQualificationResponseSchema,
} from '@manaboard/contract/admin';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../../test/admin-flow';
import { startLinkingTest, type LinkingTest } from '../../../test/linking-flow';
import { trackedMember } from '../../../test/members-world';
import { testDatabaseKinds } from '../../../test/test-database';
import { upsertPosts } from '../../mana/posts.repository';
import { recomputeTotalsWithRules } from '../../mana/rescore.service';

const post = (id: string, authorId: string, likes: number, at: Date) => ({
  id,
  authorId,
  text: '#ManaBoard',
  createdAt: new Date(at.getTime() - 3_600_000),
  kind: 'original' as const,
  likes,
  replies: 0,
  reposts: 0,
  quotes: 0,
});

describe.each(testDatabaseKinds())('console members section on %s', (kind) => {
  let t: LinkingTest;
  let admin: AdminBrowser;
  let farmerBrowser: string;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    admin = await signedInAdmin(t, 'news_desk');
    const now = new Date(t.world.clock.now());
    const db = t.database.db;
    await trackedMember(db, { id: '8001', handle: 'honest_hal' }, now);
    farmerBrowser = (await trackedMember(db, { id: '8002', handle: 'like_farmer' }, now)).browserId;
    await upsertPosts(db, [post('88001', '8001', 5, now), post('88002', '8002', 40, now)], now);
    await recomputeTotalsWithRules(db, now);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const get = async (url: string) => {
    const response = await adminRequest(t, admin, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as unknown;
  };
  const board = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/mana?limit=50' });
    return manaResponseSchema.parse(response.json()).data.authors.map((a) => a.authorName);
  };
  const qualification = (body: unknown) =>
    adminRequest(t, admin, 'POST', '/api/admin/members/qualification', body);

  it('searches members and opens a member’s page with their breakdown', async () => {
    const found = adminMembersResponseSchema.parse(await get('/api/admin/members?q=farm')).data;
    expect(found.members.map((m) => [m.handle, m.mana, m.rank])).toEqual([['like_farmer', 40, 1]]);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/members?q=')).statusCode).toBe(400);
    const page = adminMemberResponseSchema.parse(await get('/api/admin/members/8002')).data;
    expect(page.profile?.handle).toBe('like_farmer');
    expect(page.breakdown?.totalMana).toBe(40);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/members/nobody-here')).statusCode).toBe(404);
  });

  it('disqualifies with a reason: the member leaves the board at once and reads why; requalifying brings them back', async () => {
    expect(await board()).toEqual(['like_farmer', 'honest_hal']);
    expect((await qualification({ handle: 'like_farmer', disqualified: true, reason: '' })).statusCode).toBe(
      400,
    );
    expect(
      (await qualification({ handle: 'nobody_seen', disqualified: true, reason: 'Bought likes' })).statusCode,
    ).toBe(404);

    const done = await qualification({ handle: 'like_farmer', disqualified: true, reason: 'Bought likes' });
    expect(done.statusCode, done.body).toBe(200);
    expect(adminQualificationResponseSchema.parse(done.json()).data).toMatchObject({ authorId: '8002' });
    expect(await board()).toEqual(['honest_hal']);
    const card = await t.app.inject({
      method: 'GET',
      url: '/me/standing',
      headers: { 'x-user-id': farmerBrowser },
    });
    expect(memberStandingResponseSchema.parse(card.json()).data).toMatchObject({
      disqualified: true,
      reason: 'Bought likes',
      canAppeal: true,
    });
    const page = adminMemberResponseSchema.parse(await get('/api/admin/members/8002')).data;
    expect(page.disqualification).toMatchObject({ disqualified: true, reason: 'Bought likes' });
    expect(page.disqualification.by).toMatch(/news_desk/);
    const audit = adminAuditResponseSchema.parse(await get('/api/admin/audit?action=author.disqualify'));
    expect(audit.entries[0]?.details).toMatchObject({
      before: { disqualified: false },
      after: { disqualified: true, reason: 'Bought likes' },
    });

    const back = await qualification({ handle: 'like_farmer', disqualified: false, reason: 'Appeal upheld' });
    expect(back.statusCode, back.body).toBe(200);
    expect(await board()).toEqual(['like_farmer', 'honest_hal']);
  });
});
