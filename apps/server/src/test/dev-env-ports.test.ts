import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../config/test-env';
import { atprotoNetworkSkipReason } from './atproto-network';
import { prepareDevEnvPorts } from './dev-env-ports';

/** This test's own lock key: the other test files' network starts must not queue behind it, nor it behind them. */
const KEY = 0x4d425450;
const lockDir = path.join(os.tmpdir(), `atproto-dev-env-ports-${process.getuid?.() ?? 'unknown'}`);
/** This process's owner files made since `before` (a file left by a dead process of the same pid is not one). */
const ownFiles = async (before: readonly string[] = []) =>
  (await fs.readdir(lockDir).catch(() => [] as string[])).filter(
    (f) => f.startsWith(`.owner-${process.pid}-`) && !before.includes(f),
  );

describe.skipIf(atprotoNetworkSkipReason())("dev-env's port reservations (dev-env-ports.ts)", () => {
  let holder: pg.Client;
  let client: pg.Client;

  beforeAll(async () => {
    holder = new pg.Client({ connectionString: testEnv.databaseUrl });
    client = new pg.Client({ connectionString: testEnv.databaseUrl });
    await holder.connect();
    await client.connect();
  });

  afterAll(async () => {
    await holder?.end();
    await client?.end();
  });

  it("are set up once per process, only under the lock, and are the ones dev-env's network then uses", async () => {
    const before = await ownFiles();
    await holder.query('select pg_advisory_lock($1)', [KEY]);
    let settled = false;
    const preparing = prepareDevEnvPorts(client, KEY).then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Another process holds the lock (its set-up or its sweep): nothing is created meanwhile.
    expect(settled).toBe(false);
    expect(await ownFiles(before)).toEqual([]);

    await holder.query('select pg_advisory_unlock($1)', [KEY]);
    await preparing;
    const owner = await ownFiles(before);
    expect(owner).toHaveLength(1);

    // Once per process: no second wait, even while another holds the lock.
    await holder.query('select pg_advisory_lock($1)', [KEY]);
    await prepareDevEnvPorts(client, KEY);
    await holder.query('select pg_advisory_unlock($1)', [KEY]);

    // A dev-env service reserves its port with the same set-up: no second owner file, its port claimed by it.
    const { TestPlc } = await import('@atproto/dev-env');
    const plc = await TestPlc.create({});
    try {
      expect(await ownFiles(before)).toEqual(owner);
      const claimed = await fs.stat(path.join(lockDir, String(plc.port)));
      const ownerFile = await fs.stat(path.join(lockDir, owner[0] as string));
      expect(claimed.ino).toBe(ownerFile.ino); // a hard link of this process's owner file
    } finally {
      await plc.close();
    }
  }, 30_000);
});
