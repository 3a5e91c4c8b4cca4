import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announcementsResponseSchema } from '@manaboard/contract';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { seedDemoAnnouncements } from './demo-seed';
import { createAnnouncement, setAnnouncementStatus } from './announcements.service';

describe.each(testDatabaseKinds())('GET /api/public/announcements on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // These tests write and read back at once: no reuse of served pages.
    t = await buildTestApp(kind, {}, { announcementsCacheMs: 0 });
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (query = '', headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/public/announcements${query}`, headers });

  it('answers an empty list on an empty database', async () => {
    const response = await get('?page=1&limit=50');
    expect(response.statusCode).toBe(200);
    expect(announcementsResponseSchema.parse(response.json())).toEqual({
      success: true,
      announcements: [],
      page: 1,
      limit: 50,
      total: 0,
    });
  });

  it('lists only published announcements, newest first, in the contract shape', async () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(await seedDemoAnnouncements(t.database.db, now)).toBe(4);
    const body = announcementsResponseSchema.parse((await get('?page=1&limit=50')).json());
    expect(body.total).toBe(3);
    expect(body.announcements.map((a) => a.title)).toEqual([
      'Refer a friend, earn 50 Mana',
      'Weekly ranks reset every Monday',
      'Welcome to Manaboard',
    ]);
    expect(body.announcements.every((a) => a.status === 'published')).toBe(true);
    expect(body.announcements[0]?.createdAt).toBe('2026-11-20T12:00:00.000Z');
    expect(body.announcements[2]?.url).toBe('https://github.com/manaboard/manaboard#readme');
    expect(body.announcements[0]).not.toHaveProperty('url');
  });

  it('seeding twice adds nothing', async () => {
    expect(await seedDemoAnnouncements(t.database.db)).toBe(0);
    expect((await get()).json().total).toBe(3);
  });

  it('pages with page and limit, keeping the total', async () => {
    const page2 = announcementsResponseSchema.parse((await get('?page=2&limit=2')).json());
    expect(page2.announcements.map((a) => a.title)).toEqual(['Welcome to Manaboard']);
    expect(page2).toMatchObject({ page: 2, limit: 2, total: 3 });
    const beyond = announcementsResponseSchema.parse((await get('?page=9&limit=2')).json());
    expect(beyond.announcements).toEqual([]);
  });

  it('shows a newly published announcement first and hides an archived one', async () => {
    const created = await createAnnouncement(
      t.database.db,
      { title: 'Fresh news', content: 'Just published.' },
      { actor: 'test', publish: false },
    );
    expect((await get()).json().total).toBe(3);
    await setAnnouncementStatus(t.database.db, created.id, 'published', { actor: 'test' });
    const body = announcementsResponseSchema.parse((await get()).json());
    expect(body.announcements[0]?.title).toBe('Fresh news');
    await setAnnouncementStatus(t.database.db, created.id, 'archived', { actor: 'test' });
    expect((await get()).json().total).toBe(3);
  });

  it.each([
    ['?page=0', 'page must be at least 1'],
    ['?limit=0', 'limit must be at least 1'],
    ['?limit=101', 'limit must be at most 100'],
    ['?limit=abc', 'limit must be a whole number'],
    ['?page=1.5', 'page must be a whole number'],
    ['?page=-3', 'page must be at least 1'],
    ['?sort=desc', 'Unrecognized key'],
  ])('rejects %s with a 400 the client can show', async (query, message) => {
    const response = await get(query);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.success).toBe(false);
    expect(body.error).toContain(message);
  });

  it('is cacheable and revalidates with its ETag', async () => {
    const first = await get();
    expect(first.headers['cache-control']).toContain('public');
    const etag = first.headers.etag;
    expect(typeof etag).toBe('string');
    const again = await get('', { 'if-none-match': String(etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const weakened = await get('', { 'if-none-match': `"other", W/${String(etag)}` });
    expect(weakened.statusCode).toBe(304);
    const stale = await get('', { 'if-none-match': '"something-else"' });
    expect(stale.statusCode).toBe(200);
  });
});

describe('the served-page cache', () => {
  it('reuses a page for its lifetime, then reads the database again', async () => {
    const t = await buildTestApp('pglite', {}, { announcementsCacheMs: 60_000 });
    try {
      const first = (await t.app.inject({ url: '/api/public/announcements' })).json();
      expect(first.total).toBe(0);
      await createAnnouncement(
        t.database.db,
        { title: 'Later', content: 'x' },
        { actor: 'test', publish: true },
      );
      expect((await t.app.inject({ url: '/api/public/announcements' })).json().total).toBe(0);
      // Another page size is another page.
      expect((await t.app.inject({ url: '/api/public/announcements?limit=10' })).json().total).toBe(1);
    } finally {
      await t.close();
    }
  });
});
