import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import { officialHandleRule } from '../../integrations/official-handles';
import { officialAccountIds, checkOfficialAccounts } from './official-accounts';
import { OfficialAccountsError, officialAccountProblems, seedProgrammeRules } from './programme-seed';
import { findLatestRules } from './programme.repository';
import { activeRules, readRulesFile, saveRules } from './programme.service';

describe.each(testDatabaseKinds())('safe defaults off the demo (%s)', (kind) => {
  let database: DatabaseHandle;
  afterEach(async () => database?.close());

  it("seeds the demo's rules as shipped, and raises nothing there", async () => {
    database = await openTestDatabase(kind);
    expect(await seedProgrammeRules(database.db, { demo: true, officialAccounts: undefined })).toBe(1);
    const shipped = await readRulesFile();
    expect((await activeRules(database.db)).rules.officialHandles).toEqual(shipped.officialHandles);
    expect(await officialAccountProblems(database.db, { demo: true, officialAccounts: undefined })).toEqual(
      [],
    );
  });

  it('refuses to start off the demo without OFFICIAL_ACCOUNTS, in one line naming it, and seeds nothing', async () => {
    database = await openTestDatabase(kind);
    const start = { demo: false, officialAccounts: undefined, handles: officialHandleRule('bluesky') };
    const refused = seedProgrammeRules(database.db, start);
    await expect(refused).rejects.toBeInstanceOf(OfficialAccountsError);
    await expect(refused).rejects.toThrow(
      /^official accounts: OFFICIAL_ACCOUNTS is not set\. .*\(ManaboardHQ, ManaboardDev: .*set OFFICIAL_ACCOUNTS=handle\[,handle\]/,
    );
    expect(await findLatestRules(database.db)).toBeUndefined();
    expect(await officialAccountProblems(database.db, start)).toEqual([
      expect.stringMatching(/^official accounts: OFFICIAL_ACCOUNTS is not set/),
    ]);
  });

  it('starts with the official accounts OFFICIAL_ACCOUNTS names, checked against the network', async () => {
    database = await openTestDatabase(kind);
    const start = {
      demo: false,
      officialAccounts: ['team.example.com'],
      handles: officialHandleRule('bluesky'),
    };
    expect(await seedProgrammeRules(database.db, start)).toBe(1);
    const { rules } = await activeRules(database.db);
    expect(rules.officialHandles).toEqual(['team.example.com']);
    expect(rules.hashtags).toEqual((await readRulesFile()).hashtags);
    expect(await officialAccountProblems(database.db, start)).toEqual([]);
    // A later start keeps the rules the database has, and says when OFFICIAL_ACCOUNTS no longer matches them.
    const later = { ...start, officialAccounts: ['other.example.com'] };
    expect(await seedProgrammeRules(database.db, later)).toBeNull();
    expect(await officialAccountProblems(database.db, later)).toEqual([
      expect.stringMatching(
        /^official accounts: OFFICIAL_ACCOUNTS names other\.example\.com but the rules in force \(v1\) name team\.example\.com; OFFICIAL_ACCOUNTS only seeds a new database/,
      ),
    ]);
    await expect(
      seedProgrammeRules(await freshDb(), { ...start, officialAccounts: ['under_score'] }),
    ).rejects.toThrow(/OFFICIAL_ACCOUNTS[\s\S]*officialHandles\.0: "under_score" is not a Bluesky handle/);
  });

  it("refuses the rules file's examples still in force off the demo, unless OFFICIAL_ACCOUNTS names them", async () => {
    database = await openTestDatabase(kind);
    // As a database seeded before issue 25 was: the file as shipped.
    await activeRules(database.db);
    const start = { demo: false, officialAccounts: undefined };
    await expect(seedProgrammeRules(database.db, start)).rejects.toThrow(
      /^official accounts: the rules in force \(v1\) still name the rules file's example accounts ManaboardHQ, ManaboardDev/,
    );
    const confirmed = { demo: false, officialAccounts: ['ManaboardHQ', 'ManaboardDev'] };
    expect(await seedProgrammeRules(database.db, confirmed)).toBeNull();
    expect(await officialAccountProblems(database.db, confirmed)).toEqual([]);
  });

  it('keeps an official account by the id its handle first resolved to: a handle that changes hands changes nothing', async () => {
    database = await openTestDatabase(kind);
    await saveRules(
      database.db,
      { ...(await readRulesFile()), officialHandles: ['team.example.com'] },
      'test',
    );
    const rules = (await activeRules(database.db)).rules;
    let holder = 'did:plc:first';
    const resolve = async (handle: string) => (handle === 'team.example.com' ? holder : null);
    expect([...(await officialAccountIds(database.db, rules, resolve)).ids]).toEqual(['did:plc:first']);
    holder = 'did:plc:stranger';
    expect([...(await officialAccountIds(database.db, rules, resolve)).ids]).toEqual(['did:plc:first']);
    const lines = await checkOfficialAccounts(database.db, rules, resolve);
    expect(lines).toEqual([
      {
        ok: false,
        text: expect.stringMatching(
          /^official account team\.example\.com now resolves to did:plc:stranger, not to did:plc:first, .*still follows did:plc:first/,
        ),
      },
    ]);
    holder = 'did:plc:first';
    expect(await checkOfficialAccounts(database.db, rules, resolve)).toEqual([
      { ok: true, text: 'official account team.example.com is did:plc:first' },
    ]);
    expect(
      (await officialAccountIds(database.db, { officialHandles: ['nobody.example.com'] }, resolve))
        .unresolved,
    ).toEqual(['nobody.example.com']);
  });

  const opened: DatabaseHandle[] = [];
  async function freshDb() {
    const other = await openTestDatabase(kind);
    opened.push(other);
    return other.db;
  }
  afterEach(async () => {
    for (const other of opened.splice(0)) await other.close();
  });
});
