import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLedgerCheckResponseSchema,
  adminLedgerCorrectionResponseSchema,
  adminLedgerResponseSchema,
} from '@manaboard/contract/admin';
import { adminRequest, signedInAdmin, type AdminBrowser } from '../../../test/admin-flow';
import { insertLedgerWorld, type LedgerWorld } from '../../../test/ledger-world';
import { startLinkingTest, type LinkingTest } from '../../../test/linking-flow';
import { testDatabaseKinds } from '../../../test/test-database';
import { toFailure } from '../../../http/error-handler';
import { closeWeeks } from '../../ledger/ledger-close.service';
import { EditionBusyError } from '../../ledger/ledger-store.service';
import { LedgerMovedError } from '../../ledger/ledger-writer';
import { ledgerFailure } from './ledger.routes';

const world: LedgerWorld = {
  members: [0, 1, 2].map((i) => ({
    linked: false,
    linkedAtHour: 0,
    disqualified: false,
    posts: [
      {
        hour: 20 + i,
        minute: 0,
        metrics: { like: 3 + i, quote: 0, reply: i, repost: 1 },
        traced: 0.5,
        status: 'live' as const,
        finalEarly: true,
        voidRecords: 0,
      },
    ],
    referrals: [],
    interactions: [],
  })),
  rulesV2Hour: 160,
  weightsV2: { like: 1, reply: 2, repost: 2, quote: 3 },
  referralRewardV2: 50,
  seed: 5,
};

describe.each(testDatabaseKinds())('console ledger section on %s', (kind) => {
  let t: LinkingTest;
  let admin: AdminBrowser;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { ADMIN_ACCOUNTS: 'news_desk' });
    admin = await signedInAdmin(t, 'news_desk');
    await insertLedgerWorld(t.database.db, world);
    await closeWeeks({ db: t.database.db, kind, network: 'x' }, new Date(t.world.clock.now()));
  }, 180_000);
  afterAll(() => t.close());

  const ledger = async () => {
    const response = await adminRequest(t, admin, 'GET', '/api/admin/ledger');
    expect(response.statusCode, response.body).toBe(200);
    return adminLedgerResponseSchema.parse(response.json()).data;
  };

  it('lists every week, each closed one with its editions, hash and the text to post by hand', async () => {
    const data = await ledger();
    expect(data).toMatchObject({ automatic: false, officialAccount: expect.any(String) });
    const w40 = data.weeks.find((w) => w.week === '2026-W40');
    expect(w40).toMatchObject({ state: 'closed', closesAt: null });
    const edition = w40?.editions[0];
    expect(edition).toMatchObject({
      edition: 1,
      createdBy: 'worker',
      reason: null,
      members: 3,
      published: null,
    });
    expect(edition?.text).toBe(
      `Week 40 of 2026: 3 members earned ${edition?.mana} Mana. Ledger: ${t.config.publicOrigin}/api/ledger/2026-W40/1 ${edition?.sha256}`,
    );
    const newest = data.weeks[0];
    expect(newest).toMatchObject({ state: 'open', editions: [], closesAt: expect.any(String) });
  });

  it('checks a closed week, refuses bad input, and issues a correction once its figures changed', async () => {
    for (const body of [{ week: '2026-48' }, { week: 7 }, {}]) {
      const bad = await adminRequest(t, admin, 'POST', '/api/admin/ledger/check', body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toEqual({ success: false, error: expect.any(String) });
    }
    const check = async () => {
      const response = await adminRequest(t, admin, 'POST', '/api/admin/ledger/check', { week: '2026-W40' });
      expect(response.statusCode, response.body).toBe(200);
      return adminLedgerCheckResponseSchema.parse(response.json()).data;
    };
    expect(await check()).toMatchObject({ identical: true, figuresChanged: false });
    const refused = await adminRequest(t, admin, 'POST', '/api/admin/ledger/correct', {
      week: '2026-W40',
      reason: 'nothing changed',
    });
    expect(refused.statusCode).toBe(409);

    const db = t.database.db;
    const member = await db
      .selectFrom('authors')
      .select('id')
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db.updateTable('authors').set({ disqualified: true }).where('id', '=', member.id).execute();
    expect(await check()).toMatchObject({ identical: false, figuresChanged: true });
    const noReason = await adminRequest(t, admin, 'POST', '/api/admin/ledger/correct', {
      week: '2026-W40',
      reason: '  ',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toEqual({
      success: false,
      error: expect.stringContaining('a correction needs a reason'),
    });
    const made = await adminRequest(t, admin, 'POST', '/api/admin/ledger/correct', {
      week: '2026-W40',
      reason: 'disqualified after the week closed',
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(adminLedgerCorrectionResponseSchema.parse(made.json()).data).toMatchObject({ edition: 2 });
    const w40 = (await ledger()).weeks.find((w) => w.week === '2026-W40');
    expect(w40?.editions.map((e) => [e.edition, e.createdBy, e.reason])).toEqual([
      [1, 'worker', null],
      [2, expect.stringMatching(/^admin:@news_desk/), 'disqualified after the week closed'],
    ]);
    expect(w40?.editions[1]?.text).toMatch(/^Week 40 of 2026 \(correction, edition 2\): 2 members earned/);
  });
});

describe("the ledger's own failures", () => {
  it('answer 409 for a build under way and 503 with Retry-After for data that moved, never a 500', () => {
    const busy = toFailure(
      ledgerFailure(new EditionBusyError('ledger 2026-W40 edition 2 exists already')) as Error,
    );
    expect(busy).toMatchObject({ status: 409, message: expect.stringContaining('being built right now') });
    const moved = toFailure(ledgerFailure(new LedgerMovedError('the lines of did:plc:x changed')) as Error);
    expect(moved).toMatchObject({
      status: 503,
      message: expect.stringContaining('try again'),
      headers: { 'Retry-After': '5' },
    });
    // Anything else is left as it is (the handler makes it a generic 500).
    const other = new Error('boom');
    expect(ledgerFailure(other)).toBe(other);
  });
});
