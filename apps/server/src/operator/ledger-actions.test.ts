import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { closeWeeks } from '../modules/ledger/ledger-close.service';
import { insertLedgerWorld, type LedgerWorld } from '../test/ledger-world';
import { openTestDatabase, testDatabaseKinds } from '../test/test-database';
import { operatorActions } from './operator-actions';

const world: LedgerWorld = {
  members: [0, 1].map((i) => ({
    linked: i === 0,
    linkedAtHour: 0,
    disqualified: false,
    posts: [
      {
        hour: 10 + i,
        minute: 0,
        metrics: { like: 2 + i, quote: 0, reply: 1, repost: 0 },
        traced: 1,
        status: 'live' as const,
        finalEarly: true,
        voidRecords: 0,
      },
    ],
    referrals: [],
    interactions: [],
  })),
  rulesV2Hour: 150,
  weightsV2: { like: 1, reply: 2, repost: 2, quote: 3 },
  referralRewardV2: 50,
  seed: 11,
};

describe.each(testDatabaseKinds())('the ledger operator commands (%s)', (kind) => {
  let database: DatabaseHandle;
  const run = (name: 'ledger.list' | 'ledger.check' | 'ledger.correct', input: unknown) =>
    operatorActions[name].run(
      {
        db: database.db,
        actor: 'operator:ops',
        monthlyReadCap: undefined,
        ...(database.pglite ? { pglite: database.pglite } : {}),
      },
      input,
    );
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await insertLedgerWorld(database.db, world);
    await closeWeeks({ db: database.db, kind: database.kind, network: 'x' }, new Date());
  });
  afterAll(() => database.close());

  it('list the closed weeks, check one against the data, and correct it only when its figures changed', async () => {
    expect(await run('ledger.list', {})).toMatch(
      /^2026-W\d\d {2}edition 1 .* sha256:[0-9a-f]{64} {2}not published$/m,
    );
    expect(await run('ledger.check', { week: '2026-W40' })).toMatch(/Identical: nothing to correct\.$/);
    await expect(run('ledger.correct', { week: '2026-W40', reason: 'none' })).rejects.toThrow(
      /gives edition 1 byte for byte/,
    );

    const db = database.db;
    const top = await db
      .selectFrom('authors')
      .select(['id', 'handle'])
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('authors').set({ disqualified: true }).where('id', '=', top.id).execute();
    const check = await run('ledger.check', { week: '2026-W40' });
    expect(check).toContain('The figures changed; ');
    expect(check).toContain(`@${top.handle} (${top.id}): #`);
    expect(check).toMatch(/→ absent/);
    expect(await run('ledger.correct', { week: '2026-W40', reason: 'disqualified after the close' })).toMatch(
      /^Week 2026-W40: edition 2 stored \(sha256:[0-9a-f]{64}\), beside edition 1/,
    );
    const audit = await db
      .selectFrom('audit_log')
      .select(['actor', 'action'])
      .where('subject', '=', '2026-W40')
      .execute();
    expect(audit).toEqual([{ actor: 'operator:ops', action: 'ledger.correction' }]);
  });

  it('refuse a malformed week, a correction without a reason, and a week that is not closed', async () => {
    await expect(run('ledger.check', { week: '2026-48' })).rejects.toThrow(/Invalid input: week/);
    await expect(run('ledger.correct', { week: '2026-W40', reason: ' ' })).rejects.toThrow(
      /Invalid input: reason/,
    );
    await expect(run('ledger.check', { week: '2026-W48' })).rejects.toThrow(/no closed ledger yet/);
  });
});
