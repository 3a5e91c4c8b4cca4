import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programmeRulesSchema, type ProgrammeRules } from '@manaboard/contract';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import {
  activeRules,
  matchesProgramme,
  officialPostsQuery,
  programmeQuery,
  readRulesFile,
  saveRules,
} from './programme.service';

const shipped = async () => readRulesFile();

describe('programme rules', () => {
  it('ships valid defaults with the numbers of DESIGN §4', async () => {
    const rules = await shipped();
    expect(rules).toMatchObject({
      weights: { like: 1, reply: 2, repost: 2, quote: 3 },
      linkedMultiplier: 3,
      dailyLimit: 5,
      refreshWindowDays: 7,
      referralReward: 50,
      interactionRewards: { like: 1, reply: 3, repost: 2 },
      settleAfterHours: 24,
      settleByHours: 72,
    });
  });

  it('refuses broken rules with the field named', async () => {
    const rules = await shipped();
    const broken = programmeRulesSchema.safeParse({
      ...rules,
      dailyLimit: 0,
      officialHandles: ['not a handle'],
    });
    expect(broken.success).toBe(false);
    const paths = broken.error?.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['dailyLimit', 'officialHandles.0']));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rules-'));
    await fs.writeFile(path.join(dir, 'p.json'), JSON.stringify({ ...rules, settleByHours: 1 }));
    await expect(readRulesFile(path.join(dir, 'p.json'))).rejects.toThrow(/settleByHours must be at least/);
    await fs.rm(dir, { recursive: true });
  });

  it('asks the network port for keywords, hashtags and official mentions, and the officials’ own posts', async () => {
    const rules = await shipped();
    expect(programmeQuery(rules)).toEqual({
      type: 'matching',
      keywords: ['manaboard'],
      hashtags: ['ManaBoard', 'EarnMana'],
      mentions: ['ManaboardHQ', 'ManaboardDev'],
    });
    expect(officialPostsQuery(rules)).toEqual({ type: 'postsOf', handles: ['ManaboardHQ', 'ManaboardDev'] });
  });

  it('matches a keyword as a word, a hashtag or an official mention, case-insensitively', async () => {
    const rules = await shipped();
    expect(matchesProgramme(rules, 'Loving MANABOARD today')).toBe(true);
    expect(matchesProgramme(rules, 'see #earnmana!')).toBe(true);
    expect(matchesProgramme(rules, 'hi @manaboardhq')).toBe(true);
    expect(matchesProgramme(rules, 'hi @ManaboardHQfan and #ManaBoarding, manaboards')).toBe(false);
    expect(matchesProgramme(rules, 'nothing here')).toBe(false);
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('#ManaBoard', 'manaboard', '@ManaboardDev'), (text, term) => {
        expect(matchesProgramme(rules, `${text} ${term} ${text}`)).toBe(true);
      }),
    );
  });
});

describe.each(testDatabaseKinds())('stored programme rules (%s)', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('seeds version 1 from the file once, then keeps every operator version', async () => {
    const first = await activeRules(database.db);
    expect(first.version).toBe(1);
    expect((await activeRules(database.db)).version).toBe(1);
    const changed: ProgrammeRules = { ...first.rules, dailyLimit: 3 };
    expect((await saveRules(database.db, changed, 'test')).version).toBe(2);
    expect(await activeRules(database.db)).toEqual({ version: 2, rules: changed });
    await expect(saveRules(database.db, { ...changed, weights: {} }, 'test')).rejects.toThrow();
  });
});
