import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/database';
import { readRulesFile } from '../modules/programme/programme.service';
import { operatorEnv, runScript, seedOperatorData } from '../test/cli-process';

/** `npm run mana -- …` as the operator runs it, against a PGlite database in a temporary DATA_DIR. */
const mana = (dataDir: string, ...args: string[]) => runScript('src/cli/mana.ts', args, operatorEnv(dataDir));

describe('the mana CLI (PGlite in DATA_DIR)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mana-cli-'));
    await seedOperatorData(dataDir, [
      { id: '101', handle: 'ann', postId: '900', likes: 5 },
      { id: '102', handle: 'bob', postId: '901', likes: 6 },
    ]);
  });
  afterAll(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('disqualifies with a reason, stores new rules and rescores; refuses what is missing or invalid', async () => {
    const refused = await mana(dataDir, 'disqualify', 'ann');
    // A missing argument is a usage error (issue 15 §2): the problem, the usage, exit 2.
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^Missing --reason .*\n\n.*\n\nUsage:/);

    const done = await mana(dataDir, 'disqualify', '@ANN', '--reason', 'bot farm');
    expect(done.stderr).toBe('');
    expect(done.stdout).toMatch(/^Disqualified @ann \(101\); referrals changed: 0\./);
    expect((await mana(dataDir, 'disqualify', 'nobody', '--reason', 'x')).stderr).toMatch(/No author/);

    const rules = await readRulesFile();
    await fs.writeFile(
      path.join(dataDir, 'double.json'),
      JSON.stringify({ ...rules, weights: { ...rules.weights, like: 2 } }),
    );
    await fs.writeFile(path.join(dataDir, 'broken.json'), JSON.stringify({ ...rules, dailyLimit: 0 }));
    const broken = await mana(dataDir, 'rules', 'broken.json');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/Invalid programme rules in .*broken\.json:\n {2}dailyLimit:/);

    const stored = await mana(dataDir, 'rules', 'double.json');
    expect(stored.stderr).toBe('');
    expect(stored.stdout).toMatch(/^Stored the programme rules v2 \(changed: weights\); rescored 2 authors/);
    const again = await mana(dataDir, 'rules', 'double.json');
    expect(again.stdout).toMatch(/are those in force \(v2\); nothing stored/);
    const shown = JSON.parse((await mana(dataDir, 'rules')).stdout) as { version: number; rules: unknown };
    expect(shown).toEqual({ version: 2, rules: { ...rules, weights: { ...rules.weights, like: 2 } } });

    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      // ann vanished (disqualified); bob's 6 likes count twice under the new weights.
      const totals = await database.db
        .selectFrom('mana_totals')
        .select(['author_id', 'mana', 'rank'])
        .where('period', '=', 'all')
        .execute();
      expect(totals).toEqual([{ author_id: '102', mana: 12, rank: 1 }]);
      const audit = await database.db
        .selectFrom('audit_log')
        .select(['action', 'subject', 'details'])
        .orderBy('id')
        .execute();
      expect(audit.map((a) => [a.action, a.subject])).toEqual([
        ['author.disqualify', '101'],
        ['programme.rules', 'v2'],
      ]);
      expect(audit[0]?.details).toMatchObject({ reason: 'bot farm' });
    } finally {
      await database.close();
    }
    const jobs = await mana(dataDir, 'jobs');
    expect(jobs.code).toBe(0);
  }, 300_000);
});
