import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcementsResponseSchema } from '@manaboard/contract';
import {
  adminAnnouncementResponseSchema,
  adminAnnouncementsResponseSchema,
  adminAuditResponseSchema,
} from '@manaboard/contract/admin';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../../test/admin-flow';
import { startLinkingTest, type LinkingTest } from '../../../test/linking-flow';
import { testDatabaseKinds } from '../../../test/test-database';

describe.each(testDatabaseKinds())('console announcements and audit log on %s', (kind) => {
  let t: LinkingTest;
  let admin: AdminBrowser;
  let actor: string;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    admin = await signedInAdmin(t, 'news_desk');
    actor = `admin:@news_desk (${t.world.userByUsername('news_desk')?.id ?? ''})`;
  });
  afterAll(async () => {
    await t.close();
  });

  const write = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
    const response = await adminRequest(t, admin, method, url, body);
    return { status: response.statusCode, body: response.json() as Record<string, unknown> };
  };
  const publicTitles = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/public/announcements?limit=100' });
    return announcementsResponseSchema.parse(response.json()).announcements.map((a) => a.title);
  };
  const audit = async (query: string) => {
    const response = await adminRequest(t, admin, 'GET', `/api/admin/audit${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return adminAuditResponseSchema.parse(response.json());
  };

  it('creates, edits, publishes, unpublishes, archives and deletes only drafts, each audited', async () => {
    const created = await write('POST', '/api/admin/announcements', {
      title: 'Season two',
      content: 'Soon.',
    });
    expect(created.status).toBe(200);
    const { id, status } = adminAnnouncementResponseSchema.parse(created.body).announcement;
    expect(status).toBe('draft');

    const edited = await write('PUT', `/api/admin/announcements/${id}`, {
      title: 'Season two starts Monday',
      content: 'Read **the rules**.',
      url: 'https://example.org/season-2',
    });
    expect(adminAnnouncementResponseSchema.parse(edited.body).announcement.url).toBe(
      'https://example.org/season-2',
    );

    expect((await write('POST', `/api/admin/announcements/${id}/publish`)).status).toBe(200);
    expect(await publicTitles()).toContain('Season two starts Monday');
    expect((await write('DELETE', `/api/admin/announcements/${id}`)).status).toBe(409);

    expect((await write('POST', `/api/admin/announcements/${id}/unpublish`)).status).toBe(200);
    expect((await write('POST', `/api/admin/announcements/${id}/archive`)).status).toBe(200);
    expect((await write('DELETE', `/api/admin/announcements/${id}`)).status).toBe(409);
    const list = await adminRequest(t, admin, 'GET', '/api/admin/announcements');
    const all = adminAnnouncementsResponseSchema.parse(list.json()).announcements;
    expect(all.find((a) => a.id === id)?.status).toBe('archived');

    const draft = await write('POST', '/api/admin/announcements', { title: 'Typo', content: 'Oops' });
    const draftId = adminAnnouncementResponseSchema.parse(draft.body).announcement.id;
    expect((await write('DELETE', `/api/admin/announcements/${draftId}`)).status).toBe(200);
    expect((await write('DELETE', `/api/admin/announcements/${draftId}`)).status).toBe(404);

    const trail = await audit(`?subject=${id}`);
    expect(trail.entries.map((e) => e.action)).toEqual([
      'announcement.archived',
      'announcement.draft',
      'announcement.published',
      'announcement.edit',
      'announcement.create',
    ]);
    expect(trail.entries.every((e) => e.actor === actor)).toBe(true);
    const edit = trail.entries.find((e) => e.action === 'announcement.edit');
    expect(edit?.details).toMatchObject({
      before: { title: 'Season two', content: 'Soon.' },
      after: { title: 'Season two starts Monday', url: 'https://example.org/season-2' },
    });
    const deleted = await audit(`?subject=${draftId}&action=announcement.delete`);
    expect(deleted.entries[0]?.details).toMatchObject({ before: { title: 'Typo' }, after: null });
  });

  it('refuses bad input with a clear 400 and unknown ids with 404', async () => {
    const empty = await write('POST', '/api/admin/announcements', { title: ' ', content: 'x' });
    expect(empty).toEqual({
      status: 400,
      body: { success: false, error: expect.stringContaining('title is required') },
    });
    const extra = await write('POST', '/api/admin/announcements', {
      title: 'a',
      content: 'b',
      status: 'published',
    });
    expect(extra.status).toBe(400);
    const missing = await write(
      'POST',
      '/api/admin/announcements/00000000-0000-4000-8000-000000000000/publish',
    );
    expect(missing.status).toBe(404);
    const notUuid = await write('PUT', '/api/admin/announcements/nope', { title: 'a', content: 'b' });
    expect(notUuid.status).toBe(400);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/audit?limit=0')).statusCode).toBe(400);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/audit?from=yesterday')).statusCode).toBe(400);
    expect((await adminRequest(t, admin, 'GET', '/api/admin/audit?cursor=abc')).statusCode).toBe(400);
  });

  it('filters the audit log by actor, action family and date range, paged by cursor', async () => {
    for (const n of [1, 2, 3]) {
      await write('POST', '/api/admin/announcements', { title: `Paged ${n}`, content: 'x' });
    }
    const first = await audit('?action=announcement&actor=NEWS_DESK&limit=2');
    expect(first.entries).toHaveLength(2);
    expect(first.nextCursor).not.toBeNull();
    const seen = [...first.entries];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await audit(`?action=announcement&actor=news_desk&limit=2&cursor=${cursor}`);
      seen.push(...page.entries);
      cursor = page.nextCursor;
    }
    const ids = seen.map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.every((e) => e.action.startsWith('announcement.'))).toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(10);

    expect((await audit('?actor=nobody_like_this')).entries).toEqual([]);
    expect((await audit('?action=announce')).entries).toEqual([]);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    expect((await audit(`?from=${future}`)).entries).toEqual([]);
    expect((await audit(`?to=${future}&action=admin.sign_in`)).entries.length).toBeGreaterThan(0);
    const backwards = await adminRequest(
      t,
      admin,
      'GET',
      `/api/admin/audit?from=${future}&to=2020-01-01T00:00:00Z`,
    );
    expect(backwards.statusCode).toBe(400);
  });

  it('exports the filtered log as CSV, escaped and safe to open in a spreadsheet', async () => {
    await write('POST', '/api/admin/announcements', {
      title: '=HYPERLINK("http://evil")',
      content: 'a,b\n"c"',
    });
    const response = await adminRequest(t, admin, 'GET', '/api/admin/audit.csv?action=announcement.create');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="manaboard-audit-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,subject,details');
    expect(lines.slice(1, -1).every((line) => line.includes(',announcement.create,'))).toBe(true);
    // The details cell is one quoted JSON cell (jsonb orders its keys itself); inner quotes doubled.
    expect(lines[1]).toMatch(/,"\{""/);
    expect(lines[1]).toContain('""title"":""=HYPERLINK(\\""http://evil\\"")""');
    expect(response.body.endsWith('\r\n')).toBe(true);
  });
});
