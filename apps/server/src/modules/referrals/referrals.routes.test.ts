import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyReferralResponseSchema, referralLinkResponseSchema } from '@manaboard/contract';
import { linkedBrowser, newBrowser, TEST_ORIGIN, type LinkingTest } from '../../test/linking-flow';
import { referralCalls, startReferralsTest } from '../../test/referral-calls';
import { testDatabaseKinds } from '../../test/test-database';
import { referralLines } from '../mana/member-facts.repository';

describe.each(testDatabaseKinds())('referrals on %s', (kind) => {
  let t: LinkingTest;
  beforeAll(async () => {
    t = await startReferralsTest(kind);
  });
  afterAll(async () => {
    await t.close();
  });
  const { apply, expectRefused, status, stats } = referralCalls(() => t);

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
});
