import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkAs, linkedBrowser, newBrowser, type LinkingTest } from '../../test/linking-flow';
import { referralCalls, startReferralsTest } from '../../test/referral-calls';
import { testDatabaseKinds } from '../../test/test-database';
import { activeRules, saveRules } from '../programme/programme.service';

describe.each(testDatabaseKinds())('referrals on %s: cycles, gates, the rules in force, races', (kind) => {
  let t: LinkingTest;
  beforeAll(async () => {
    t = await startReferralsTest(kind);
  });
  afterAll(async () => {
    await t.close();
  });
  const { apply, expectRefused, status, stats } = referralCalls(() => t);

  it('refuses a cycle (A→B, then B→A; and A→B→C, then C→A)', async () => {
    const a = await linkedBrowser(t, 'cycle_a');
    const b = await linkedBrowser(t, 'cycle_b');
    const c = await linkedBrowser(t, 'cycle_c');
    expect((await apply(a, 'cycle_b')).statusCode).toBe(200);
    await expectRefused(b, 'cycle_a', 'INVALID_REFERRER');
    expect((await apply(b, 'cycle_c')).statusCode).toBe(200);
    await expectRefused(c, 'cycle_a', 'INVALID_REFERRER');
    await expectRefused(c, 'cycle_b', 'INVALID_REFERRER');
  });

  it('asks a referee whose X account is too new or too little followed for verification', async () => {
    await linkedBrowser(t, 'gate_referrer');
    const young = await linkedBrowser(t, 'gate_young', { ageDays: 29, followers: 500 });
    const lonely = await linkedBrowser(t, 'gate_lonely', { ageDays: 400, followers: 9 });
    const fine = await linkedBrowser(t, 'gate_fine', { ageDays: 31, followers: 10 });
    await expectRefused(young, 'gate_referrer', 'REQUIRES_VERIFICATION');
    await expectRefused(lonely, 'gate_referrer', 'REQUIRES_VERIFICATION');
    expect((await apply(fine, 'gate_referrer')).statusCode).toBe(200);
    // The gate looks at the facts X gives at each login: old enough later, the same member passes.
    t.world.advance(2 * 86_400_000);
    const again = await newBrowser(t);
    await linkAs(t, again, 'gate_young');
    expect((await apply(again, 'gate_referrer')).statusCode).toBe(200);
  });

  it('applies the referrer given at the start of linking, and says so on the way back', async () => {
    await linkedBrowser(t, 'Door_Opener');
    const newcomer = await newBrowser(t);
    const landed = await linkAs(t, newcomer, 'door_newcomer', { referrerSlug: '@door_opener' });
    expect(landed.pathname).toBe('/auth/callback');
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      referral_applied: 'true',
      referrer_handle: 'Door_Opener',
    });
    expect(await status(newcomer)).toEqual({ status: 'already_referred', referrerHandle: 'Door_Opener' });

    const selfish = await newBrowser(t);
    const refused = await linkAs(t, selfish, 'self_starter', { referrerSlug: 'self_starter' });
    expect(Object.fromEntries(refused.searchParams)).toEqual({ referral_error: 'SELF_REFERRAL' });
  });

  it('takes the reward, the anti-bot gate and the official accounts from the programme rules in force', async () => {
    const { db } = t.database;
    const { rules } = await activeRules(db);
    const referrer = await linkedBrowser(t, 'rules_referrer');
    const early = await linkedBrowser(t, 'rules_early', { ageDays: 400, followers: 500 });
    expect((await apply(early, 'rules_referrer')).statusCode).toBe(200);
    try {
      await saveRules(
        db,
        {
          ...rules,
          referralReward: 70,
          minFollowers: 0,
          minAccountAgeDays: 0,
          officialHandles: ['Rules_Brand'],
        },
        'test',
      );
      const fresh = await linkedBrowser(t, 'rules_fresh', { ageDays: 1, followers: 0 });
      expect((await apply(fresh, 'rules_referrer')).statusCode).toBe(200);
      // The new official account is reserved; ManaboardDev no longer is (and nobody linked it).
      const asker = await linkedBrowser(t, 'rules_asker');
      await expectRefused(asker, 'rules_brand', 'HANDLE_RESERVED');
      await expectRefused(asker, 'ManaboardDev', 'INVALID_REFERRER');
      const rows = await db
        .selectFrom('referrals')
        .innerJoin('accounts', 'accounts.id', 'referrals.referee_account_id')
        .select(['accounts.handle', 'referrals.reward_mana'])
        .where('accounts.handle', 'in', ['rules_early', 'rules_fresh'])
        .orderBy('accounts.handle')
        .execute();
      // Each referral keeps the reward of the rules in force when it was made.
      expect(rows).toEqual([
        { handle: 'rules_early', reward_mana: rules.referralReward },
        { handle: 'rules_fresh', reward_mana: 70 },
      ]);
      expect(await stats(referrer)).toBe(2);
    } finally {
      await saveRules(db, rules, 'test');
    }
  });

  it('refuses a handle the programme rules reserve as HANDLE_RESERVED, linked or not, and frees it after', async () => {
    const { db } = t.database;
    const { rules } = await activeRules(db);
    await linkedBrowser(t, 'Withheld_Star');
    const asker = await linkedBrowser(t, 'withheld_asker');
    try {
      await saveRules(db, { ...rules, reservedHandles: ['@withheld_star', 'Withheld_Ghost'] }, 'test');
      expect((await activeRules(db)).rules.reservedHandles).toEqual(['withheld_star', 'Withheld_Ghost']);
      // Reserved by the rules, compared case-insensitively, whether or not anyone linked the name.
      await expectRefused(asker, 'Withheld_Star', 'HANDLE_RESERVED');
      await expectRefused(asker, 'withheld_ghost', 'HANDLE_RESERVED');
      // The configured names still count beside the rules' list.
      await expectRefused(asker, 'reserved_two', 'HANDLE_RESERVED');
      expect(await status(asker)).toEqual({ status: 'not_referred', referrerHandle: null });
    } finally {
      await saveRules(db, rules, 'test');
    }
    // Once the rules no longer reserve it, the member is a referrer like any other.
    expect((await apply(asker, 'Withheld_Star')).statusCode).toBe(200);
    expect(await status(asker)).toEqual({ status: 'already_referred', referrerHandle: 'Withheld_Star' });
  });

  it('makes exactly one referral out of 50 parallel applies', async () => {
    const referrers = await Promise.all(['race_r1', 'race_r2'].map((h) => linkedBrowser(t, h)));
    expect(referrers).toHaveLength(2);
    const referee = await linkedBrowser(t, 'race_referee');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => apply(referee, i % 2 === 0 ? 'race_r1' : 'race_r2')),
    );
    const codes = answers.map((r) => (r.statusCode === 200 ? 'OK' : String(r.json().error.code)));
    expect(codes.filter((c) => c === 'OK')).toHaveLength(1);
    expect(codes.filter((c) => c !== 'OK').every((c) => c === 'ALREADY_REFERRED')).toBe(true);
    const account = await t.database.db
      .selectFrom('accounts')
      .select('id')
      .where('handle', '=', 'race_referee')
      .executeTakeFirstOrThrow();
    const rows = await t.database.db
      .selectFrom('referrals')
      .select('id')
      .where('referee_account_id', '=', account.id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
