import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { openDatabase } from '../db/database';
import { pageOfTotals } from '../modules/leaderboard/leaderboard.repository';
import { freePort } from '../test/free-port';
import { operatorEnv, runScript, seedOperatorData, startOwner, type OwnerProcess } from '../test/cli-process';

const stackTrace = /\n\s+at /;

/**
 * This test's handles on the owner's leaderboard (the server's own answer, cache and all), found by search: the
 * demo world the owner replays has authors enough to push them off a first page.
 */
async function leaderboardHandles(owner: OwnerProcess): Promise<string[]> {
  const response = await fetch(`${owner.origin}/api/mana?limit=100&search=owner_`);
  const body = manaResponseSchema.parse(await response.json());
  return body.data.authors.map((a) => a.authorName);
}

/**
 * Issue 15 §1 with real processes: `npm start` owns the embedded database; a second process never opens it.
 * Operator commands take effect in the running server (and survive its restart); a second server, the api and
 * worker roles and db:migrate are refused with one line; a SIGKILLed owner's lock is taken over.
 */
describe('one owner of the embedded database', () => {
  let dataDir: string;
  let owner: OwnerProcess | undefined;
  const env = () => operatorEnv(dataDir);

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-owner-'));
    await seedOperatorData(dataDir, [
      { id: '700', handle: 'owner_ann', postId: '800', likes: 50 },
      { id: '701', handle: 'owner_bob', postId: '801', likes: 49 },
    ]);
    owner = await startOwner(dataDir);
  }, 180_000);

  afterAll(async () => {
    if (owner && owner.child.exitCode === null) {
      owner.child.kill('SIGTERM');
      await owner.exited;
    }
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('carries a disqualification out in the running server, at once', async () => {
    if (!owner) throw new Error('no owner');
    expect(await leaderboardHandles(owner)).toContain('owner_ann');
    const done = await runScript('src/cli/mana.ts', ['disqualify', 'owner_ann', '--reason', 'probe'], env());
    expect(done).toMatchObject({ code: 0, stderr: '' });
    expect(done.stdout).toMatch(/^Disqualified @owner_ann \(700\)/);
    const handles = await leaderboardHandles(owner);
    expect(handles).not.toContain('owner_ann');
    expect(handles).toContain('owner_bob');
  }, 120_000);

  it('runs every other operator command through the owner, or refuses it with one line', async () => {
    const added = await runScript(
      'src/cli/announcements.ts',
      ['add', '--title', 'Through the owner', '--content', 'Kept', '--publish'],
      env(),
    );
    expect(added).toMatchObject({ code: 0, stderr: '' });
    const id = /^Added (\S+) as published\.$/m.exec(added.stdout)?.[1] ?? '';
    const [list, seed, rebuild, jobs, rules, usage, missing, migrate] = await Promise.all([
      runScript('src/cli/announcements.ts', ['list'], env()),
      runScript('src/cli/seed.ts', [], env()),
      runScript('src/cli/mana-rebuild.ts', [], env()),
      runScript('src/cli/mana.ts', ['jobs'], env()),
      runScript('src/cli/mana.ts', ['rules'], env()),
      runScript('src/cli/x-usage.ts', [], env()),
      runScript('src/cli/announcements.ts', ['archive', 'no-such-id'], env()),
      runScript('src/cli/migrate.ts', [], env()),
    ]);
    expect(list.stdout).toContain(`${id}  published`);
    expect(seed.stdout).toMatch(/^Demo announcements: \d+ added/);
    expect(rebuild.stdout).toMatch(/^Rebuilt the totals of \d+ authors with rules v1/);
    expect(jobs.code).toBe(0);
    expect(JSON.parse(rules.stdout)).toMatchObject({ version: 1 });
    expect(usage.code).toBe(0);
    for (const result of [list, seed, rebuild, jobs, rules, usage]) expect(result.stderr).toBe('');
    // A failure in the owner comes back as the command's one line and exit 1.
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).not.toMatch(stackTrace);
    expect(migrate.code).toBe(1);
    expect(migrate.stderr).toMatch(
      /^The Manaboard server \(pid \d+\) owns the embedded database .* restart it/,
    );

    const published = (await (await fetch(`${owner?.origin}/api/public/announcements`)).json()) as {
      announcements: { title: string }[];
    };
    expect(published.announcements.map((a) => a.title)).toContain('Through the owner');
  }, 180_000);

  it('refuses a second server and the api and worker roles on the held directory', async () => {
    const [second, api, worker] = await Promise.all([
      runScript('src/main.ts', [], operatorEnv(dataDir, { PORT: String(await freePort()) })),
      runScript('src/main.ts', ['api'], operatorEnv(dataDir, { PORT: String(await freePort()) })),
      runScript('src/main.ts', ['worker'], env()),
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toMatch(
      /^The embedded database in .* is in use by the Manaboard server \(pid \d+ .*\): stop it first, or set DATABASE_URL/,
    );
    for (const [role, result] of [
      ['api', api],
      ['worker', worker],
    ] as const) {
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(
        `npm run start:${role} needs PostgreSQL (DATABASE_URL): the embedded database has one owner, so run the API and the worker in one process with npm start.`,
      );
    }
  }, 120_000);

  it('backs up through the running owner, refuses a restore under it, and the backup restores', async () => {
    if (!owner) throw new Error('no owner');
    const before = await leaderboardHandles(owner);
    // The command cannot open the held directory: the owner takes the dump and writes the file.
    const backup = await runScript('src/cli/db-backup.ts', ['owner-backup.tar.gz'], env());
    expect(backup).toMatchObject({ code: 0, stderr: '' });
    const file = path.join(dataDir, 'owner-backup.tar.gz');
    expect(backup.stdout).toBe(
      `Backed up the embedded database to ${file} (${(await fs.stat(file)).size} bytes)\n`,
    );

    const refused = await runScript('src/cli/db-restore.ts', ['owner-backup.tar.gz'], env());
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      new RegExp(
        `^The Manaboard server \\(pid ${owner.pid}\\) holds the embedded database in .*: stop it first, then restore; nothing was changed\\.\\n$`,
      ),
    );
    expect((await fs.readdir(dataDir)).filter((name) => name.startsWith('pglite.'))).toEqual([]);

    // The board did not move while the backup was taken, so the backup holds exactly `before`.
    expect(await leaderboardHandles(owner)).toEqual(before);

    // A change after the backup, then the backup put back with the server stopped: the change is gone.
    const later = ['add', '--title', 'After the backup', '--content', 'Lost', '--publish'];
    expect(await runScript('src/cli/announcements.ts', later, env())).toMatchObject({ code: 0, stderr: '' });
    owner.child.kill('SIGTERM');
    expect(await owner.exited).toBe(0);
    const restored = await runScript('src/cli/db-restore.ts', ['owner-backup.tar.gz'], env());
    expect(restored).toMatchObject({ code: 0, stderr: '' });
    expect(restored.stdout).toMatch(/^Restored .*owner-backup\.tar\.gz into .*; the previous data is in /);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const page = await pageOfTotals(database.db, {
        period: 'all',
        search: 'owner_',
        limit: 100,
        offset: 0,
      });
      expect(page.rows.map((r) => r.handle)).toEqual(before);
      const titles = await database.db.selectFrom('announcements').select('title').execute();
      expect(titles.map((t) => t.title)).toContain('Through the owner');
      expect(titles.map((t) => t.title)).not.toContain('After the backup');
    } finally {
      await database.close();
    }
    owner = await startOwner(dataDir);
  }, 300_000);

  it('keeps what went through the owner across a restart, and takes over a SIGKILLed owner’s lock', async () => {
    if (!owner) throw new Error('no owner');
    owner.child.kill('SIGTERM');
    expect(await owner.exited).toBe(0);
    await expect(fs.access(path.join(dataDir, 'owner.lock'))).rejects.toThrow();

    owner = await startOwner(dataDir);
    expect(await leaderboardHandles(owner)).not.toContain('owner_ann');
    process.kill(owner.pid, 'SIGKILL');
    await owner.exited;
    const lock = path.join(dataDir, 'owner.lock');
    expect(JSON.parse(await fs.readFile(lock, 'utf8'))).toMatchObject({ pid: owner.pid });

    // The lock of the killed server is stale: a command takes it over and works on the data itself.
    const list = await runScript('src/cli/announcements.ts', ['list'], env());
    expect(list).toMatchObject({ code: 0, stderr: '' });
    expect(list.stdout).toContain('Through the owner');
    await expect(fs.access(lock)).rejects.toThrow();
    const audit = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const rows = await audit.db.selectFrom('audit_log').select(['action', 'actor']).execute();
      expect(rows.map((r) => r.action)).toEqual(
        expect.arrayContaining(['author.disqualify', 'announcement.publish']),
      );
    } finally {
      await audit.close();
    }
  }, 300_000);
});
