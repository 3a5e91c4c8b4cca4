import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyReferralResponseSchema,
  messageFor,
  referralFailureSchema,
  referralLinkResponseSchema,
  referralStatsResponseSchema,
  referralStatusResponseSchema,
} from '@manaboard/contract';
import {
  linkAs,
  linkedBrowser,
  newBrowser,
  startLinkingTest,
  TEST_ORIGIN,
  type LinkingTest,
} from '../../test/linking-flow';
import { testDatabaseKinds } from '../../test/test-database';
import { referralLines } from '../mana/member-facts.repository';
import { activeRules, saveRules } from '../programme/programme.service';

type Browser = Awaited<ReturnType<typeof newBrowser>>;

describe.each(testDatabaseKinds())('referrals on %s', (kind) => {
  let t: LinkingTest;
  beforeAll(async () => {
    t = await startLinkingTest(kind, {
      RESERVED_HANDLES: 'Reserved_One,Reserved_Two',
      // The 50-way race below comes from one browser.
      RATE_LIMIT_APPLY_PER_MINUTE: '1000',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const apply = (browser: Browser, referrerHandle: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/referrals/apply',
      headers: browser.headers,
      payload: { referrerHandle },
    });
  const expectRefused = async (browser: Browser, handle: string, code: string, status = 400) => {
    const response = await apply(browser, handle);
    expect(response.statusCode, response.body).toBe(status);
    const { error } = referralFailureSchema.parse(response.json());
    expect(error.code).toBe(code);
    expect(error.message).toBe(messageFor(code as Parameters<typeof messageFor>[0]));
  };
  const status = async (browser: Browser) =>
    referralStatusResponseSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/referrals/status', headers: { 'x-user-id': browser.id } })
      ).json(),
    ).data;
  const stats = async (browser: Browser) =>
    referralStatsResponseSchema.parse(
      (
        await t.app.inject({ method: 'GET', url: '/referrals/stats', headers: { 'x-user-id': browser.id } })
      ).json(),
    ).data.refereeCount;

  it('gives a linked member their link: slug = handle, url = origin/r/@handle', async () => {
    const member = await linkedBrowser(t, 'Link_Owner');
    const response = await t.app.inject({
      method: 'POST',
      url: '/referrals/link',
      headers: member.headers,
      payload: {},
    });
    expect(referralLinkResponseSchema.parse(response.json()).data).toEqual({
      slug: 'Link_Owner',
      url: `${TEST_ORIGIN}/r/@Link_Owner`,
    });
    const stranger = await newBrowser(t);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/referrals/link',
      headers: stranger.headers,
      payload: {},
    });
    expect(refused.json().error.code).toBe('NOT_CONNECTED');
  });

  it('applies a referrer once (leading @, any case) and reports status, stats and the stored reward', async () => {
    const referrer = await linkedBrowser(t, 'Ref_Giver');
    const referee = await linkedBrowser(t, 'ref_taker');
    expect(await status(referee)).toEqual({ status: 'not_referred', referrerHandle: null });
    expect(await stats(referrer)).toBe(0);

    const response = await apply(referee, '  @REF_giver ');
    expect(response.statusCode, response.body).toBe(200);
    expect(applyReferralResponseSchema.parse(response.json()).data).toEqual({ referrerHandle: 'Ref_Giver' });
    expect(await status(referee)).toEqual({ status: 'already_referred', referrerHandle: 'Ref_Giver' });
    expect(await stats(referrer)).toBe(1);

    const row = await t.database.db
      .selectFrom('referrals')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ reward_mana: 50, status: 'credited' });
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'referral.apply')
      .execute();
    expect(audit.length).toBeGreaterThan(0);
  });

  it('answers each rule with its code, in order', async () => {
    const stranger = await newBrowser(t);
    // Not linked comes first, even before an empty input.
    await expectRefused(stranger, '', 'NOT_CONNECTED', 403);
    await expectRefused(stranger, 'Ref_Giver', 'NOT_CONNECTED', 403);

    const member = await linkedBrowser(t, 'rules_member');
    await expectRefused(member, '', 'EMPTY_INPUT');
    await expectRefused(member, '  @ ', 'EMPTY_INPUT');
    await expectRefused(member, 'nobody_here', 'INVALID_REFERRER');
    await expectRefused(member, 'bad handle!', 'INVALID_REFERRER');
    // Look-alikes of a linked referrer's handle (Cyrillic е, full-width letters) name nobody.
    await expectRefused(member, 'Rеf_Giver', 'INVALID_REFERRER');
    await expectRefused(member, 'Ｒef_Giver', 'INVALID_REFERRER');
    await expectRefused(member, '@rules_MEMBER', 'SELF_REFERRAL');

    // Known at X and once linked, but no browser bound any more: not a referrer.
    const gone = await linkedBrowser(t, 'gone_member');
    await t.app.inject({ method: 'POST', url: '/me/unlink', headers: gone.headers, payload: {} });
    await expectRefused(member, 'gone_member', 'INVALID_REFERRER');

    // Reserved: an official account of the programme and a configured name, once they are linked.
    await linkedBrowser(t, 'ManaboardHQ');
    await linkedBrowser(t, 'reserved_one');
    await expectRefused(member, 'manaboardhq', 'HANDLE_RESERVED');
    await expectRefused(member, 'Reserved_One', 'HANDLE_RESERVED');

    await linkedBrowser(t, 'first_ref');
    await linkedBrowser(t, 'second_ref');
    expect((await apply(member, 'first_ref')).statusCode).toBe(200);
    await expectRefused(member, 'second_ref', 'ALREADY_REFERRED', 409);
    // ALREADY_REFERRED comes before HANDLE_RESERVED in the order of the rules.
    await expectRefused(member, 'manaboardhq', 'ALREADY_REFERRED', 409);
  });

  it('refuses reserved names that nobody linked as HANDLE_RESERVED, not INVALID_REFERRER', async () => {
    const member = await linkedBrowser(t, 'reserved_asker');
    // An official account of the programme rules and a configured name; neither is linked here.
    await expectRefused(member, '@ManaboardDev', 'HANDLE_RESERVED');
    await expectRefused(member, 'reserved_two', 'HANDLE_RESERVED');
    await expectRefused(member, 'not_reserved_nobody', 'INVALID_REFERRER');
    const rows = await t.database.db
      .selectFrom('accounts')
      .select('handle')
      .where('handle', 'in', ['ManaboardDev', 'Reserved_Two', 'reserved_two'])
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('finds the referrer whatever the casing and an @ with spaces ("ALICE", "@alice ")', async () => {
    await linkedBrowser(t, 'Alice');
    const shouting = await linkedBrowser(t, 'case_shouter');
    const spaced = await linkedBrowser(t, 'case_spacer');
    expect(applyReferralResponseSchema.parse((await apply(shouting, 'ALICE')).json()).data).toEqual({
      referrerHandle: 'Alice',
    });
    expect(applyReferralResponseSchema.parse((await apply(spaced, '@alice ')).json()).data).toEqual({
      referrerHandle: 'Alice',
    });
  });

  it('counts the same referees in stats as earn referral Mana: linked and not disqualified', async () => {
    const referrer = await linkedBrowser(t, 'count_referrer');
    const referees = await Promise.all(
      ['count_stays', 'count_leaves', 'count_banned'].map((h) => linkedBrowser(t, h)),
    );
    for (const referee of referees) expect((await apply(referee, 'count_referrer')).statusCode).toBe(200);
    expect(await stats(referrer)).toBe(3);
    await t.app.inject({ method: 'POST', url: '/me/unlink', headers: referees[1]?.headers, payload: {} });
    await t.database.db
      .updateTable('accounts')
      .set({ disqualified: true })
      .where('handle', '=', 'count_banned')
      .execute();
    const { network_user_id: authorId } = await t.database.db
      .selectFrom('accounts')
      .select('network_user_id')
      .where('handle', '=', 'count_referrer')
      .executeTakeFirstOrThrow();
    const lines = await referralLines(t.database.db, [authorId]);
    expect(lines.map((line) => line.refereeHandle)).toEqual(['count_stays']);
    expect(await stats(referrer)).toBe(lines.length);
  });

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
