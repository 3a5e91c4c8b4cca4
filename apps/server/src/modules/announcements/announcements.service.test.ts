import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { NotFoundError } from '../../lib/errors';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { createAnnouncement, listAll, setAnnouncementStatus } from './announcements.service';

describe.each(testDatabaseKinds())('announcements service on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('writes drafts, publishes once (keeping the first publication time) and audits every action', async () => {
    const t0 = new Date('2026-11-01T10:00:00Z');
    const draft = await createAnnouncement(
      database.db,
      { title: 'Draft', content: 'Body', url: 'https://example.org/post' },
      { actor: 'cli:ops', publish: false, now: t0 },
    );
    expect(draft).toMatchObject({
      status: 'draft',
      createdAt: t0.toISOString(),
      url: 'https://example.org/post',
    });

    const t1 = new Date('2026-11-02T10:00:00Z');
    const published = await setAnnouncementStatus(database.db, draft.id, 'published', {
      actor: 'cli:ops',
      now: t1,
    });
    expect(published).toMatchObject({ status: 'published', createdAt: t1.toISOString() });

    await setAnnouncementStatus(database.db, draft.id, 'archived', { actor: 'cli:ops' });
    const republished = await setAnnouncementStatus(database.db, draft.id, 'published', {
      actor: 'cli:ops',
      now: new Date('2026-11-05T00:00:00Z'),
    });
    expect(republished.createdAt).toBe(t1.toISOString());

    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'subject'])
      .where('subject', '=', draft.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual([
      'announcement.create',
      'announcement.published',
      'announcement.archived',
      'announcement.published',
    ]);
    expect(audit.every((a) => a.actor === 'cli:ops')).toBe(true);
    expect((await listAll(database.db)).map((a) => a.id)).toContain(draft.id);
  });

  it('refuses to change an announcement that does not exist', async () => {
    await expect(
      setAnnouncementStatus(database.db, '00000000-0000-4000-8000-000000000000', 'published', { actor: 'x' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
