import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { findAll } from './announcements.repository';
import { createAnnouncement } from './announcements.service';
import { seedDemoIfEmpty } from './demo-seed';

describe.each(testDatabaseKinds())('demo content on %s', (kind) => {
  let empty: DatabaseHandle;
  let used: DatabaseHandle;
  beforeAll(async () => {
    [empty, used] = await Promise.all([openTestDatabase(kind), openTestDatabase(kind)]);
  });
  afterAll(async () => {
    await Promise.all([empty.close(), used.close()]);
  });

  it('fills an empty (already migrated) database once: three published and one draft', async () => {
    expect(await seedDemoIfEmpty(empty.db)).toBe(4);
    expect(await seedDemoIfEmpty(empty.db)).toBe(0);
    const statuses = (await findAll(empty.db)).map((row) => row.status).sort();
    expect(statuses).toEqual(['draft', 'published', 'published', 'published']);
  });

  it('leaves an operator’s own content alone', async () => {
    await createAnnouncement(
      used.db,
      { title: 'Ours', content: 'Real news' },
      { actor: 'cli:ops', publish: true },
    );
    expect(await seedDemoIfEmpty(used.db)).toBe(0);
    expect((await findAll(used.db)).map((row) => row.title)).toEqual(['Ours']);
  });
});
