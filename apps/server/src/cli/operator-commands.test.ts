import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../config/test-env';
import { dropSchemasLocked } from '../db/schema-drop-lock';
import { testDatabaseKinds } from '../test/test-database';
import { operatorEnv, runScript, type CliResult } from '../test/cli-process';

const stackTrace = /\n\s+at /;
const scripts = {
  announcements: 'src/cli/announcements.ts',
  mana: 'src/cli/mana.ts',
  rebuild: 'src/cli/mana-rebuild.ts',
  seed: 'src/cli/seed.ts',
  usage: 'src/cli/x-usage.ts',
  migrate: 'src/cli/migrate.ts',
  backup: 'src/cli/db-backup.ts',
  restore: 'src/cli/db-restore.ts',
} as const;

type Row = [script: keyof typeof scripts, args: string[], code: 0 | 1 | 2, output: RegExp];

/** Issue 15 §2: how each operator command answers a call it cannot carry out (no database is touched). */
const usageRows: Row[] = [
  ['announcements', ['add', '--title', 'T', '--body', 'B'], 2, /^Unknown option '--body'/],
  ['announcements', [], 2, /^Missing command\./],
  ['announcements', ['frobnicate'], 2, /^Unknown command "frobnicate"\./],
  ['announcements', ['add', '--title', 'T'], 2, /^Missing --content\./],
  ['announcements', ['publish'], 2, /^Missing announcement id/],
  ['announcements', ['list', 'extra'], 2, /^Unexpected argument "extra"\./],
  ['announcements', ['add', '--title'], 2, /^Option '--title <value>' argument missing/],
  ['mana', [], 2, /^Missing command\./],
  ['mana', ['disqualify'], 2, /^Missing handle/],
  ['mana', ['disqualify', 'ann'], 2, /^Missing --reason/],
  ['mana', ['disqualify', 'ann', '--reason', '  '], 2, /^Missing --reason/],
  ['mana', ['jobs', '--all'], 2, /^Unknown option '--all'/],
  ['rebuild', ['now'], 2, /^Unexpected argument "now"\./],
  ['seed', ['--force'], 2, /^Unknown option '--force'/],
  ['usage', ['march'], 2, /^Unexpected argument "march"\./],
  ['migrate', ['--dry-run'], 2, /^Unknown option '--dry-run'/],
  ['backup', ['--gzip'], 2, /^Unknown option '--gzip'/],
  ['backup', ['a.tar.gz', 'b.tar.gz'], 2, /^Unexpected argument "b\.tar\.gz"\./],
  ['backup', [], 1, /^No embedded database in .* \(DATA_DIR\): nothing to back up\n$/],
  ['restore', [], 2, /^Missing backup file\./],
  ['restore', ['--force', 'x.tar.gz'], 2, /^Unknown option '--force'/],
  ['restore', ['a.tar.gz', 'b.tar.gz'], 2, /^Unexpected argument "b\.tar\.gz"\./],
  ['restore', ['missing.tar.gz'], 1, /^No such backup file: .*missing\.tar\.gz\n$/],
  ...Object.keys(scripts).map((script): Row => [script as keyof typeof scripts, ['--help'], 0, /Usage:\n/]),
  ['mana', ['-h'], 0, /Usage:\n {2}npm run mana -- disqualify/],
];

function expectAnswer(result: CliResult, code: number, output: RegExp): void {
  expect(result.code).toBe(code);
  const [printed, other] = code === 0 ? [result.stdout, result.stderr] : [result.stderr, result.stdout];
  expect(printed).toMatch(output);
  expect(other).toBe('');
  expect(printed).not.toMatch(stackTrace);
  if (code === 2) expect(printed).toMatch(/\n\nUsage:\n|\n\n.*\n\nUsage:\n/);
  if (code === 1) expect(printed.trim().split('\n')).toHaveLength(1);
}

describe('operator commands called wrongly (real processes)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-usage-'));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it.concurrent.each(usageRows)('%s %j → exit %i', async (script, args, code, output) => {
    expectAnswer(await runScript(scripts[script], args, operatorEnv(dataDir)), code, output);
  });

  it('opened no database for any of them', async () => {
    expect(await fs.readdir(dataDir)).toEqual([]);
  });
});

/** Good calls and failures that reach the database, on each engine. */
describe.each(testDatabaseKinds())('operator commands on %s (real processes)', (kind) => {
  let dataDir: string;
  let extra: Record<string, string> = {};
  let schema: string | undefined;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-ops-'));
    const url = testEnv.databaseUrl;
    if (kind === 'postgres' && url) {
      schema = `mb_cli_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const options = encodeURIComponent(`-c search_path=${schema}`);
      extra = { DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${options}` };
    }
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
    if (schema && testEnv.databaseUrl) {
      const admin = new pg.Client({ connectionString: testEnv.databaseUrl });
      await admin.connect();
      await dropSchemasLocked(admin, [schema]);
      await admin.end();
    }
  });
  const cli = (script: keyof typeof scripts, ...args: string[]) =>
    runScript(scripts[script], args, operatorEnv(dataDir, extra));

  it('does the work and exits 0, or says in one line why not and exits 1', async () => {
    const where = kind === 'pglite' ? /to PGlite in / : /to PostgreSQL \(DATABASE_URL\)/;
    expectAnswer(await cli('migrate'), 0, new RegExp(`^Applied 0001\\S*.* ${where.source}`));
    const added = await cli('announcements', 'add', '--title', 'Row', '--content', 'Text', '--publish');
    expectAnswer(added, 0, /^Added \S+ as published\.\n$/);
    type Call = [() => Promise<CliResult>, number, RegExp];
    const backup: Call = [
      () => cli('backup', 'kept.tar.gz'),
      0,
      /^Backed up the embedded database to \S*kept\.tar\.gz \(\d+ bytes\)\n$/,
    ];
    const rows: Call[] = [
      [() => cli('announcements', 'list'), 0, /\S+ {2}published {2}\d{4}-\d\d-\d\d {2}Row\n/],
      [
        () => cli('announcements', 'add', '--title', 'T', '--content', 'C', '--url', 'nope'),
        1,
        /^Invalid input: /,
      ],
      [() => cli('announcements', 'archive', 'no-such-id'), 1, /no-such-id|not found/i],
      [() => cli('announcements', 'delete', 'no-such-id'), 1, /No announcement with id no-such-id/],
      [
        () => cli('announcements', 'edit', 'no-such-id', '--title', 'T', '--content', 'C'),
        1,
        /No announcement/,
      ],
      [() => cli('seed'), 0, /^Demo announcements: \d+ added \(0 already present\)\.\n$/],
      [() => cli('mana', 'disqualify', 'nobody', '--reason', 'x'), 1, /^No author with handle nobody/],
      [() => cli('mana', 'rules', 'missing.json'), 1, /^Cannot read programme rules from .*missing\.json/],
      [() => cli('mana', 'jobs'), 0, /^No job has run yet\.\n$/],
      [() => cli('rebuild'), 0, /^Rebuilt the totals of 0 authors with rules v1/],
      [() => cli('usage'), 0, /\S/],
      [() => cli('restore', 'missing.dump'), 1, /^No such backup file: .*missing\.dump\n$/],
      [() => cli('restore', 'garbage.bin'), 1, /^\S*garbage\.bin is not a (PGlite|PostgreSQL) backup/],
      // pg_dump of the whole shared test database is not this test's to take; backup.test.ts covers PostgreSQL.
      ...(kind === 'pglite' ? [backup] : []),
    ];
    await fs.writeFile(path.join(dataDir, 'garbage.bin'), 'not a backup at all');
    // One at a time: on PGlite each command holds the data directory while it works.
    for (const [call, code, output] of rows) expectAnswer(await call(), code, output);
  }, 600_000);
});
