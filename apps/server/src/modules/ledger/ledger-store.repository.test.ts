import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { STALE_BUILD_MS } from './ledger-close.service';
import * as store from './ledger-store.repository';

const WEEK = '2026-W40';
const START = new Date('2026-10-10T04:00:00.000Z');
const MINUTE = 60_000;
const done = { sha256: 'sha256:00', byteLength: 10, gzipLength: 4, members: 1, mana: 5, now: START };

describe.each(testDatabaseKinds())('ledger builds and their tokens (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await database.db.deleteFrom('ledgers').execute();
  });

  const start = (token: string) =>
    store.startEdition(database.db, {
      week: WEEK,
      edition: 1,
      token,
      network: 'bluesky',
      closedAt: START,
      createdBy: 'worker',
      reason: null,
      now: START,
    });
  const append = (token: string, seq: number, at: Date) =>
    store.appendChunk(database.db, {
      week: WEEK,
      edition: 1,
      token,
      seq,
      data: new Uint8Array([seq, 1, 2]),
      rawLength: 5,
      now: at,
    });
  const stored = () => store.storedEdition(database.db, WEEK, 1);

  it('keeps a long build that keeps appending alive, and drops one that stopped', async () => {
    expect(await start('a')).toBe(true);
    await append('a', 0, new Date(START.getTime() + 9 * MINUTE));
    await append('a', 1, new Date(START.getTime() + 18 * MINUTE));
    // 20 minutes after the build began, 2 after its last piece: alive.
    const at20 = START.getTime() + 20 * MINUTE;
    expect(await store.dropStaleBuilds(database.db, new Date(at20 - STALE_BUILD_MS))).toBe(0);
    await store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'a' }, done, {
      chunks: 2,
      rawLength: 10,
    });
    expect((await stored())?.sha256).toBe('sha256:00');
    expect((await stored())?.build_token).toBeNull();
  });

  it('lets a build whose row was dropped as stale neither append nor finish', async () => {
    await start('a');
    await append('a', 0, START);
    expect(await store.dropStaleBuilds(database.db, new Date(START.getTime() + MINUTE))).toBe(1);
    await expect(append('a', 1, START)).rejects.toBeInstanceOf(store.EditionLostError);
    await expect(
      store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'a' }, done, {
        chunks: 1,
        rawLength: 5,
      }),
    ).rejects.toBeInstanceOf(store.EditionLostError);
    expect(await stored()).toBeUndefined();
  });

  it('never lets two builders of one edition both store, nor one drop the other', async () => {
    await start('a');
    await append('a', 0, START);
    await store.dropStaleBuilds(database.db, new Date(START.getTime() + STALE_BUILD_MS + MINUTE));
    // A second builder (a new leader, a correction) starts the same edition.
    expect(await start('b')).toBe(true);
    await append('b', 0, START);
    await expect(append('a', 1, START)).rejects.toBeInstanceOf(store.EditionLostError);
    await expect(
      store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'a' }, done, {
        chunks: 2,
        rawLength: 10,
      }),
    ).rejects.toBeInstanceOf(store.EditionLostError);
    await store.dropBuilding(database.db, { week: WEEK, edition: 1, token: 'a' });
    expect(await start('c')).toBe(false);
    await store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'b' }, done, {
      chunks: 1,
      rawLength: 5,
    });
    expect((await stored())?.state).toBe('stored');
  });

  it('stores nothing when the chunks are not exactly those the build wrote', async () => {
    await start('a');
    await append('a', 0, START);
    await append('a', 1, START);
    await expect(
      store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'a' }, done, {
        chunks: 1,
        rawLength: 5,
      }),
    ).rejects.toThrow(/2 chunks of 10 bytes stored, this build wrote 1 of 5/);
    await expect(
      store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'a' }, done, {
        chunks: 2,
        rawLength: 11,
      }),
    ).rejects.toThrow(/nothing was stored/);
    expect(await stored()).toBeUndefined();
    await store.finishEdition(database.db, { week: WEEK, edition: 1, token: 'a' }, done, {
      chunks: 2,
      rawLength: 10,
    });
    expect((await stored())?.byte_length).toBeTruthy();
  });
});
