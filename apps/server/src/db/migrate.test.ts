import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations/index';

describe('migrations on an embedded data directory', () => {
  it('create the schema once and keep data across restarts', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-data-'));
    try {
      const first = await openDatabase({ kind: 'pglite', dataDir });
      const outcome = await migrateToLatest(first.db);
      expect(outcome).toEqual({ applied: Object.keys(migrations), freshDatabase: true });
      await first.db
        .insertInto('announcements')
        .values({
          id: 'a1',
          title: 'Kept',
          content: 'Across restarts',
          url: null,
          status: 'published',
          published_at: new Date(),
        })
        .execute();
      await first.close();

      const second = await openDatabase({ kind: 'pglite', dataDir });
      expect(await migrateToLatest(second.db)).toEqual({ applied: [], freshDatabase: false });
      const rows = await second.db.selectFrom('announcements').select('title').execute();
      expect(rows).toEqual([{ title: 'Kept' }]);
      await second.close();
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
