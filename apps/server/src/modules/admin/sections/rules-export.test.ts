import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema, programmeResponseSchema } from '@manaboard/contract';
import {
  adminAuditResponseSchema,
  adminRewardsExportResponseSchema,
  adminRulesResponseSchema,
  rulesDiffResponseSchema,
  rulesPreviewResponseSchema,
  rulesSaveResponseSchema,
  rulesVersionsResponseSchema,
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

describe.each(testDatabaseKinds())('console rules and rewards export on %s', (kind) => {
  let t: LinkingTest;
  let admin: AdminBrowser;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    admin = await signedInAdmin(t, 'news_desk');
    const now = new Date(t.world.clock.now());
    await trackedMember(t.database.db, { id: '6001', handle: 'first_fan' }, now);
    await trackedMember(t.database.db, { id: '6002', handle: 'second_fan' }, now);
    await upsertPosts(t.database.db, [post('66001', '6001', 30, now), post('66002', '6002', 12, now)], now);
    await recomputeTotalsWithRules(t.database.db, now);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  const get = async (url: string) => {
    const response = await adminRequest(t, admin, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };

  it('previews a draft (per-field errors, changes, the network query and its limit), saves a version, diffs it', async () => {
    const { version, rules } = adminRulesResponseSchema.parse((await get('/api/admin/rules')).json()).data;

    const invalid = await adminRequest(t, admin, 'POST', '/api/admin/rules/preview', {
      rules: { ...rules, dailyLimit: 0 },
    });
    const rejected = rulesPreviewResponseSchema.parse(invalid.json()).data;
    expect(rejected.validation.valid).toBe(false);
    expect(Object.keys(rejected.validation.fieldErrors)).toContain('dailyLimit');

    const draft = { ...rules, dailyLimit: rules.dailyLimit + 2 };
    const preview = rulesPreviewResponseSchema.parse(
      (await adminRequest(t, admin, 'POST', '/api/admin/rules/preview', { rules: draft })).json(),
    ).data;
    expect(preview.validation.valid).toBe(true);
    expect(preview.changes.map((c) => c.field)).toEqual(['dailyLimit']);
    const programme = preview.queries.find((q) => q.purpose === 'programme');
    expect(programme?.maxLength).toBe(512);
    expect(programme?.length).toBe(programme?.text.length);

    const refused = await adminRequest(t, admin, 'POST', '/api/admin/rules', {
      rules: { ...rules, weights: 3 },
    });
    expect(refused.statusCode).toBe(400);

    const saved = await adminRequest(t, admin, 'POST', '/api/admin/rules', { rules: draft });
    expect(saved.statusCode, saved.body).toBe(200);
    const result = rulesSaveResponseSchema.parse(saved.json()).data;
    expect(result).toMatchObject({ version: version + 1, unchanged: false });
    // How to earn (the public programme) follows at once.
    const publicRules = programmeResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/programme' })).json(),
    );
    expect(JSON.stringify(publicRules)).toContain(`"dailyLimit":${draft.dailyLimit}`);

    const again = rulesSaveResponseSchema.parse(
      (await adminRequest(t, admin, 'POST', '/api/admin/rules', { rules: draft })).json(),
    ).data;
    expect(again).toMatchObject({ version: version + 1, unchanged: true });

    const versions = rulesVersionsResponseSchema.parse((await get('/api/admin/rules/versions')).json()).data;
    expect(versions.current).toBe(version + 1);
    expect(versions.versions[0]?.actor).toMatch(/news_desk/);
    const diff = rulesDiffResponseSchema.parse(
      (await get(`/api/admin/rules/versions/${version + 1}/diff`)).json(),
    ).data;
    expect(diff.changes).toEqual([
      expect.objectContaining({ field: 'dailyLimit', before: rules.dailyLimit, after: draft.dailyLimit }),
    ]);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/rules/versions/999/diff')).statusCode).toBe(404);
    const audit = adminAuditResponseSchema.parse(
      (await get('/api/admin/audit?action=programme.rules')).json(),
    );
    expect(audit.entries).toHaveLength(1);
    expect(audit.entries[0]?.actor).toMatch(/news_desk/);
    expect(audit.entries[0]?.details).toMatchObject({
      before: { dailyLimit: rules.dailyLimit },
      after: { dailyLimit: draft.dailyLimit },
    });
  });

  it('reserved handles are a rule: checked like official handles, previewed, saved as a version and diffed', async () => {
    const { version, rules } = adminRulesResponseSchema.parse((await get('/api/admin/rules')).json()).data;
    expect(rules.reservedHandles).toEqual([]);
    const preview = async (draft: unknown) =>
      rulesPreviewResponseSchema.parse(
        (await adminRequest(t, admin, 'POST', '/api/admin/rules/preview', { rules: draft })).json(),
      ).data;

    // Not a handle at all, and a domain handle the configured network (X) cannot have: both by the field.
    const malformed = await preview({ ...rules, reservedHandles: ['has space'] });
    expect(malformed.validation.fieldErrors.reservedHandles).toEqual([
      expect.stringMatching(/^item 1: reserved handles are a name/),
    ]);
    const domain = await preview({ ...rules, reservedHandles: ['Fine_Name', 'team.example.com'] });
    expect(domain.validation.valid).toBe(false);
    expect(domain.validation.fieldErrors).toEqual({
      reservedHandles: [expect.stringMatching(/^item 2: "team\.example\.com" is not an X handle/)],
    });
    const domainSave = await adminRequest(t, admin, 'POST', '/api/admin/rules', {
      rules: { ...rules, reservedHandles: ['team.example.com'] },
    });
    expect(domainSave.statusCode).toBe(400);

    const draft = { ...rules, reservedHandles: ['@Brand_Partner', 'support_desk'] };
    const good = await preview(draft);
    expect(good.validation.valid).toBe(true);
    expect(good.changes).toEqual([
      {
        field: 'reservedHandles',
        before: [],
        after: ['Brand_Partner', 'support_desk'],
        added: ['Brand_Partner', 'support_desk'],
        removed: [],
      },
    ]);

    const saved = rulesSaveResponseSchema.parse(
      (await adminRequest(t, admin, 'POST', '/api/admin/rules', { rules: draft })).json(),
    ).data;
    expect(saved).toMatchObject({ version: version + 1, unchanged: false });
    expect(saved.rules.reservedHandles).toEqual(['Brand_Partner', 'support_desk']);
    const now = adminRulesResponseSchema.parse((await get('/api/admin/rules')).json()).data;
    expect(now).toMatchObject({
      version: version + 1,
      rules: { reservedHandles: ['Brand_Partner', 'support_desk'] },
    });

    const diff = rulesDiffResponseSchema.parse(
      (await get(`/api/admin/rules/versions/${version + 1}/diff`)).json(),
    ).data;
    expect(diff.changes).toEqual([expect.objectContaining({ field: 'reservedHandles', removed: [] })]);
    // Members never see the list: the public rules do not carry it.
    const publicRules = (await t.app.inject({ method: 'GET', url: '/api/programme' })).body;
    expect(publicRules).not.toContain('Brand_Partner');
  });

  it('exports all time as the leaderboard shows it, as JSON and as CSV', async () => {
    const board = manaResponseSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/mana?limit=50' })).json(),
    ).data.authors;
    const exported = adminRewardsExportResponseSchema.parse(
      (await get('/api/admin/export?period=all')).json(),
    ).data;
    expect(exported.rows.map((r) => [r.rank, r.handle, r.mana])).toEqual(
      board.map((a) => [a.rank, a.authorName, a.totalMana]),
    );
    expect(exported.rows.map((r) => r.handle)).toEqual(['first_fan', 'second_fan']);

    const csv = await get('/api/admin/export.csv?period=all');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/manaboard-rewards-all\.csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^1,first_fan,6001,30,/);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/export?period=2026-W99')).statusCode).toBe(400);
  });
});
