import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberStandingResponseSchema } from '@manaboard/contract';
import {
  adminAppealResponseSchema,
  adminAppealsResponseSchema,
  adminAuditResponseSchema,
  fairnessFlagsResponseSchema,
  fairnessRunResponseSchema,
  memberFairnessResponseSchema,
} from '@manaboard/contract/admin';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../../test/admin-flow';
import { startLinkingTest, type LinkingTest } from '../../../test/linking-flow';
import { trackedMember, writeHeaders } from '../../../test/members-world';
import { testDatabaseKinds } from '../../../test/test-database';
import { replaceFlags } from '../../fairness/fairness.repository';
import { setAuthorDisqualified } from '../../mana/disqualification.service';

const APPEAL = 'These are my own posts, I run one account only.';

describe.each(testDatabaseKinds())('console appeals and fairness signals on %s', (kind) => {
  let t: LinkingTest;
  let admin: AdminBrowser;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    admin = await signedInAdmin(t, 'news_desk');
  });
  afterAll(async () => {
    await t.close();
  });

  const get = async (url: string) => {
    const response = await adminRequest(t, admin, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as unknown;
  };
  const post = (url: string, body?: unknown) => adminRequest(t, admin, 'POST', url, body);
  const auditActions = async (action: string) =>
    adminAuditResponseSchema.parse(await get(`/api/admin/audit?action=${action}`)).entries;

  it('lists an open appeal, answers it (audited), and the member reads the answer on their card', async () => {
    const now = new Date();
    const { browserId } = await trackedMember(t.database.db, { id: '9001', handle: 'looped' }, now);
    await setAuthorDisqualified(t.database.db, {
      handle: 'looped',
      disqualified: true,
      reason: 'Engagement from a closed ring',
      actor: 'op:test',
      now,
    });
    const sent = await t.app.inject({
      method: 'POST',
      url: '/me/appeal',
      headers: await writeHeaders(t.app, browserId),
      payload: { text: APPEAL },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const open = adminAppealsResponseSchema.parse(await get('/api/admin/appeals?status=open')).data;
    const listed = open.appeals.find((a) => a.handle === 'looped');
    expect(listed).toMatchObject({ text: APPEAL, reason: 'Engagement from a closed ring', answer: null });

    const bad = await post(`/api/admin/appeals/${listed?.id ?? ''}/answer`, { answer: '   ' });
    expect(bad.statusCode).toBe(400);
    const missing = await post('/api/admin/appeals/987654321/answer', { answer: 'No.' });
    expect(missing.statusCode).toBe(404);

    const answered = await post(`/api/admin/appeals/${listed?.id ?? ''}/answer`, {
      answer: 'We looked again: the ring is real. Talk to us on Discord.',
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(adminAppealResponseSchema.parse(answered.json()).data.answer).toMatch(/ring is real/);
    const stillOpen = adminAppealsResponseSchema.parse(await get('/api/admin/appeals?status=open')).data;
    expect(stillOpen.appeals.some((a) => a.handle === 'looped')).toBe(false);

    const card = await t.app.inject({
      method: 'GET',
      url: '/me/standing',
      headers: { 'x-user-id': browserId },
    });
    const standing = memberStandingResponseSchema.parse(card.json()).data;
    expect(standing.appeal?.answer).toMatch(/ring is real/);
    const [entry] = await auditActions('appeal.answer');
    expect(entry?.actor).toMatch(/news_desk/);
    expect(entry?.details).toMatchObject({ after: { answer: expect.stringMatching(/ring is real/) } });
  });

  it('lists flags strongest first, shows a member’s flags, records a review, and runs the detector now', async () => {
    const now = new Date();
    await replaceFlags(
      t.database.db,
      [
        {
          subjectId: '7001',
          kind: 'ring',
          handle: 'ring_a',
          score: 0.9,
          reason: 'ring',
          evidence: { size: 4 },
        },
        {
          subjectId: '7002',
          kind: 'spike',
          handle: 'spiky',
          score: 0.4,
          reason: 'spike',
          evidence: { day: 'x' },
        },
      ],
      now,
    );
    const all = fairnessFlagsResponseSchema.parse(await get('/api/admin/fairness/flags')).data;
    expect(all.flags.map((f) => f.handle)).toEqual(['ring_a', 'spiky']);
    const rings = fairnessFlagsResponseSchema.parse(await get('/api/admin/fairness/flags?kind=ring')).data;
    expect(rings.flags.map((f) => f.handle)).toEqual(['ring_a']);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/fairness/flags?kind=bogus')).statusCode).toBe(
      400,
    );

    const review = await post('/api/admin/fairness/review', {
      subjectId: '7001',
      kind: 'ring',
      note: 'Checked: four accounts run by one person.',
    });
    expect(review.statusCode, review.body).toBe(200);
    const mine = memberFairnessResponseSchema.parse(await get('/api/admin/fairness/members/7001')).data;
    expect(mine.flags[0]?.review).toMatchObject({ note: 'Checked: four accounts run by one person.' });
    expect(
      (await post('/api/admin/fairness/review', { subjectId: 'nobody', kind: 'ring', note: 'x' })).statusCode,
    ).toBe(404);

    const run = await post('/api/admin/fairness/recompute');
    expect(run.statusCode, run.body).toBe(200);
    const counts = fairnessRunResponseSchema.parse(run.json()).data;
    // The detector found nothing in this quiet world, so the hand-planted flags it no longer raises are gone.
    expect(counts.flags).toEqual({ ring: 0, referral_chain: 0, spike: 0 });
    const after = fairnessFlagsResponseSchema.parse(await get('/api/admin/fairness/flags')).data;
    expect(after.flags).toEqual([]);
    const [recompute] = await auditActions('fairness.recompute');
    expect(recompute?.details).toMatchObject({ after: counts.flags });
  });
});
