import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { clearDirty, refreshAuthorProfiles, upsertAuthors, type AuthorInput } from './authors.repository';

const T0 = new Date('2026-11-20T10:00:00Z');
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

describe.each(testDatabaseKinds())('upsertAuthors (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  const ann: AuthorInput = {
    id: '7001',
    handle: 'ann',
    displayName: 'Ann',
    avatarUrl: null,
    firstTrackedAt: T0,
  };
  const row = (id: string) =>
    database.db.selectFrom('authors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('inserts a new author, marked for the totals job', async () => {
    await upsertAuthors(database.db, [ann], T0);
    expect(await row('7001')).toMatchObject({ handle: 'ann', totals_dirty: true, updated_at: T0 });
  });

  it('does not rewrite an author it already has, unchanged and waiting for the totals job', async () => {
    await upsertAuthors(database.db, [{ ...ann, firstTrackedAt: later(5) }], later(10));
    expect(await row('7001')).toMatchObject({ handle: 'ann', first_tracked_at: T0, updated_at: T0 });
  });

  it('updates a renamed author (handle, name or avatar)', async () => {
    await upsertAuthors(database.db, [{ ...ann, handle: 'ann_2', firstTrackedAt: later(5) }], later(20));
    expect(await row('7001')).toMatchObject({ handle: 'ann_2', first_tracked_at: T0, updated_at: later(20) });
    await upsertAuthors(
      database.db,
      [{ ...ann, handle: 'ann_2', avatarUrl: 'https://pbs.twimg.com/a.jpg', firstTrackedAt: later(5) }],
      later(25),
    );
    expect(await row('7001')).toMatchObject({
      avatar_url: 'https://pbs.twimg.com/a.jpg',
      updated_at: later(25),
    });
  });

  it('marks a known author whose totals are up to date, and keeps the earliest first tracked post', async () => {
    await clearDirty(database.db, ['7001']);
    const same = { ...ann, handle: 'ann_2', avatarUrl: 'https://pbs.twimg.com/a.jpg' };
    await upsertAuthors(database.db, [{ ...same, firstTrackedAt: later(5) }], later(30));
    expect(await row('7001')).toMatchObject({
      totals_dirty: true,
      first_tracked_at: T0,
      updated_at: later(30),
    });
    // The same author twice in one page, with an earlier post than any seen: the earliest wins.
    await upsertAuthors(
      database.db,
      [
        { ...same, firstTrackedAt: later(-5) },
        { ...same, firstTrackedAt: later(-30) },
      ],
      later(40),
    );
    expect(await row('7001')).toMatchObject({ first_tracked_at: later(-30), updated_at: later(40) });
  });

  it('refreshes known profiles as given, whatever their characters, and returns only the changed ones', async () => {
    const bob: AuthorInput = {
      id: '7002',
      handle: 'bob',
      displayName: 'Bob',
      avatarUrl: 'https://x/b.jpg',
      firstTrackedAt: T0,
    };
    await upsertAuthors(database.db, [bob], T0);
    // Quotes, a backslash, commas, braces, "NULL" and a null avatar: the profiles travel as arrays (issue 33).
    const odd = { id: '7002', handle: 'NULL', displayName: 'B "o", {b} \\ O\'Brien', avatarUrl: null };
    const changed = await refreshAuthorProfiles(
      database.db,
      [
        odd,
        { id: '7001', handle: 'ann_2', displayName: 'Ann', avatarUrl: 'https://pbs.twimg.com/a.jpg' },
        { id: '7999', handle: 'nobody', displayName: 'Nobody', avatarUrl: null },
      ],
      later(50),
    );
    expect(changed).toEqual(['7002']);
    expect(await row('7002')).toMatchObject({
      handle: 'NULL',
      display_name: 'B "o", {b} \\ O\'Brien',
      avatar_url: null,
      updated_at: later(50),
    });
    expect(await row('7001')).toMatchObject({ updated_at: later(40) });
    expect(await database.db.selectFrom('authors').select('id').where('id', '=', '7999').execute()).toEqual(
      [],
    );
  });
});
