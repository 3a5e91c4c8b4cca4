import { World } from '@manaboard/x-sim';
import { afterEach, describe, expect, it } from 'vitest';
import { startManaHarness, type ManaHarness } from '../../test/mana-harness';
import { testDatabaseKinds } from '../../test/test-database';
import { activeRules, readRulesFile } from './programme.service';
import {
  listRuleVersions,
  previewRules,
  RulesInvalidError,
  ruleVersionDiff,
  saveRulesDraft,
} from './rules-admin.service';

const NOW = Date.parse('2026-11-24T12:00:00Z');

/** The console's rules section (issue 13 §2) on the services it calls, against the real adapter's query syntax. */
describe.each(testDatabaseKinds())('rules administration (%s)', (kind) => {
  let h: ManaHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('saves versions with a field-level diff, lists who saved them, validates per field, previews the query', async () => {
    h = await startManaHarness(kind, new World(NOW));
    const db = h.database.db;
    const shipped = await readRulesFile();
    await activeRules(db); // seeds version 1 from the file

    const draft = {
      ...shipped,
      dailyLimit: 8,
      hashtags: ['ManaBoard', 'Season2'],
      weights: { ...shipped.weights, quote: 4 },
    };
    const preview = await previewRules(db, draft, h.network);
    expect(preview.validation).toEqual({ valid: true, fieldErrors: {}, formErrors: [] });
    const expected = [
      {
        field: 'hashtags',
        before: ['ManaBoard', 'EarnMana'],
        after: ['ManaBoard', 'Season2'],
        added: ['Season2'],
        removed: ['EarnMana'],
      },
      { field: 'weights.quote', before: 3, after: 4 },
      { field: 'dailyLimit', before: 5, after: 8 },
    ];
    expect(preview.changes).toEqual(expected);
    const programme = '(manaboard OR #ManaBoard OR #Season2 OR @ManaboardHQ OR @ManaboardDev) -is:retweet';
    expect(preview.queries).toEqual([
      { purpose: 'programme', text: programme, length: programme.length, maxLength: 512, withinLimit: true },
      {
        purpose: 'officialPosts',
        text: '(from:ManaboardHQ OR from:ManaboardDev) -is:retweet -is:reply',
        length: 61,
        maxLength: 512,
        withinLimit: true,
      },
    ]);
    expect(await activeRules(db)).toMatchObject({ version: 1 }); // a preview stores nothing

    const saved = await saveRulesDraft(db, draft, { actor: 'admin:ops', now: new Date(NOW) });
    expect(saved).toMatchObject({ version: 2, unchanged: false, changes: expected });
    expect(await saveRulesDraft(db, draft, { actor: 'admin:ops', now: new Date(NOW) })).toMatchObject({
      version: 2,
      unchanged: true,
      changes: [],
    });
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'programme.rules')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'admin:ops', subject: 'v2' });
    expect(audit[0]?.details).toMatchObject({
      source: 'console',
      from: 1,
      before: { dailyLimit: 5, hashtags: ['ManaBoard', 'EarnMana'] },
      after: { dailyLimit: 8, hashtags: ['ManaBoard', 'Season2'] },
    });

    const versions = await listRuleVersions(db, { limit: 10, offset: 0 });
    expect(versions).toMatchObject({ current: 2, total: 2 });
    expect(versions.versions.map((v) => [v.version, v.actor, v.source])).toEqual([
      [2, 'admin:ops', 'console'],
      [1, null, 'file:programme.json'],
    ]);
    expect(await ruleVersionDiff(db, 2)).toEqual({ version: 2, previousVersion: 1, changes: expected });
    expect(await ruleVersionDiff(db, 1)).toEqual({ version: 1, previousVersion: null, changes: [] });
    await expect(ruleVersionDiff(db, 9)).rejects.toMatchObject({ status: 404 });

    // Invalid drafts: messages per field for the form; saving one is a 400 that stores nothing.
    const broken = {
      ...shipped,
      hashtags: ['ok', ' '],
      weights: { ...shipped.weights, like: -1 },
      settleAfterHours: 48,
      settleByHours: 24,
      dailyLimit: 'five',
    };
    const invalid = await previewRules(db, broken, h.network);
    expect(invalid.validation.valid).toBe(false);
    expect(invalid.validation.fieldErrors).toEqual({
      hashtags: ['item 2: keywords and hashtags are not empty'],
      'weights.like': ['weights.like must be ≥ 0'],
      dailyLimit: [expect.stringMatching(/number/)],
    });
    expect(invalid.queries).toEqual([]);
    const later = { ...shipped, settleAfterHours: 48, settleByHours: 24 };
    expect((await previewRules(db, later, h.network)).validation.fieldErrors).toEqual({
      settleByHours: ['settleByHours must be at least settleAfterHours'],
    });
    const refused = await saveRulesDraft(db, broken, { actor: 'admin:ops', now: new Date(NOW) }).catch(
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(RulesInvalidError);
    expect(refused).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect((refused as RulesInvalidError).validation.fieldErrors).toHaveProperty('weights.like');
    expect((await activeRules(db)).version).toBe(2);

    // A query past the network's limit says so.
    const long = { ...shipped, keywords: Array.from({ length: 20 }, (_, i) => `a long keyword phrase ${i}`) };
    const [query] = (await previewRules(db, long, h.network)).queries;
    expect(query?.length).toBeGreaterThan(512);
    expect(query?.withinLimit).toBe(false);
  }, 60_000);
});
