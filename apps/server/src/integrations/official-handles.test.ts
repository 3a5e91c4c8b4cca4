import { afterEach, describe, expect, it } from 'vitest';
import { programmeRulesSchema } from '@manaboard/contract';
import type { DatabaseHandle } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import { activeRules, parseRules, readRulesFile } from '../modules/programme/programme.service';
import { operatorActions } from '../operator/operator-actions';
import { openTestDatabase, testDatabaseKinds } from '../test/test-database';
import { officialHandleRule } from './official-handles';

const handles = (officialHandles: string[]) =>
  programmeRulesSchema.safeParse({ ...baseRules, officialHandles });
let baseRules: Awaited<ReturnType<typeof readRulesFile>>;

describe('official handles: the contract takes every form, each network its own', () => {
  it('the contract takes bare names and full domain handles, and nothing else', async () => {
    baseRules = await readRulesFile();
    for (const ok of ['ManaboardHQ', '@Mana_HQ', 'team.example.com', 'manaboard.bsky.social', 'a-b.c9.io'])
      expect(handles([ok]).success, ok).toBe(true);
    expect(handles(['@team.example.com']).data?.officialHandles).toEqual(['team.example.com']);
    for (const bad of [
      'has space',
      'a..b',
      '.example.com',
      'team.example.',
      '-a.example.com',
      'a.123',
      'sixteen_chars_xx',
      '',
    ])
      expect(handles([bad]).success, bad).toBe(false);
  });

  it('X takes bare names only; Bluesky takes domain handles and names it can put under bsky.social', async () => {
    const rules = { ...(await readRulesFile()), officialHandles: ['team.example.com'] };
    expect(() => parseRules(rules, 'test', officialHandleRule('x'))).toThrow(
      /officialHandles\.0: "team\.example\.com" is not an X handle/,
    );
    expect(parseRules(rules, 'test', officialHandleRule('bluesky')).officialHandles).toEqual([
      'team.example.com',
    ]);
    expect(
      parseRules({ ...rules, officialHandles: ['ManaboardHQ'] }, 'test', officialHandleRule('bluesky')),
    ).toBeTruthy();
    expect(() =>
      parseRules({ ...rules, officialHandles: ['Mana_HQ'] }, 'test', officialHandleRule('bluesky')),
    ).toThrow(/"Mana_HQ" is not a Bluesky handle/);
    expect(
      parseRules({ ...rules, officialHandles: ['Mana_HQ'] }, 'test', officialHandleRule('x')).officialHandles,
    ).toEqual(['Mana_HQ']);
  });
});

describe.each(testDatabaseKinds())(
  "the operator's rules change checks the configured network's handles (%s)",
  (kind) => {
    let database: DatabaseHandle | undefined;
    afterEach(async () => {
      await database?.close();
      database = undefined;
    });

    it('refuses a domain handle on X, stores it on Bluesky', async () => {
      database = await openTestDatabase(kind);
      await migrateToLatest(database.db);
      const rules = { ...(await readRulesFile()), officialHandles: ['team.example.com'] };
      const change = operatorActions['mana.rules.change'];
      const input = { rules, file: 'rules.json', source: 'test' };
      const context = (network: 'x' | 'bluesky') => ({
        db: database!.db,
        actor: 'operator',
        monthlyReadCap: undefined,
        officialHandles: officialHandleRule(network),
      });
      await expect(change.run(context('x'), input)).rejects.toThrow(/is not an X handle/);
      expect((await activeRules(database.db)).rules.officialHandles).not.toContain('team.example.com');
      await expect(change.run(context('bluesky'), input)).resolves.toMatch(/^Stored the programme rules v/);
      expect((await activeRules(database.db)).rules.officialHandles).toEqual(['team.example.com']);
    });
  },
);
