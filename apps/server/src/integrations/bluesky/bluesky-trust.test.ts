import { IdResolver, parseToAtprotoDocument } from '@atproto/identity';
import { ClientValidationError } from '@atcute/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogueError } from '../../lib/errors';
import { hashBrowserId } from '../../modules/identity/browser-id';
import { bindBrowser, upsertAccount } from '../../modules/linking/accounts.repository';
import { activeRules, saveRules } from '../../modules/programme/programme.service';
import { applyReferral, passesAntiBotGate } from '../../modules/referrals/referrals.service';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../../test/atproto-network';
import type { Did } from '../../test/bluesky-world';
import { freePort } from '../../test/free-port';
import { cookieHeader, keepCookies, newBrowser } from '../../test/linking-flow';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { AccountAge } from './bluesky-account-age';
import { BlueskyAppView } from './bluesky-appview';
import { BlueskySocialNetwork } from './bluesky-network';
import { linkedProfileOf } from './bluesky-profile';

const skip = atprotoNetworkSkipReason();
const HOUR = 3_600_000;
const CLAIMED = '2015-01-01T00:00:00.000Z';

/**
 * Issue 25: the anti-bot gate reads an account's age from a source the member cannot write (the PLC directory),
 * never from the profile record the member's own client writes; and a member whose server is down is a warning,
 * not an error with a stack trace.
 */
describe.skipIf(skip !== null)('what Bluesky linking trusts, on a local AT Protocol network', () => {
  let network: LocalAtprotoNetwork;
  let t: TestApp;
  const did: Record<string, Did> = {};

  beforeAll(async () => {
    network = await startAtprotoNetwork();
    const sc = network.network.getSeedClient();
    for (const name of ['alice', 'newbie', 'fan', 'gone']) {
      const account = await sc.createAccount(name, {
        handle: `${name}.test`,
        email: `${name}@example.test`,
        password: `${name}-password`,
      });
      did[name] = account.did as Did;
    }
    // A brand-new account whose own profile record claims it was created years ago.
    await sc.agent.com.atproto.repo.putRecord(
      {
        repo: did.newbie as Did,
        collection: 'app.bsky.actor.profile',
        rkey: 'self',
        record: { $type: 'app.bsky.actor.profile', displayName: 'Old timer', createdAt: CLAIMED },
      },
      { headers: sc.getHeaders(did.newbie as Did), encoding: 'application/json' },
    );
    await sc.follow(did.fan as Did, did.newbie as Did);
    await network.network.processAll();
    t = await buildTestApp('pglite', {
      SOCIAL_NETWORK: 'bluesky',
      PUBLIC_ORIGIN: 'http://127.0.0.1:1',
      BLUESKY_APPVIEW_URL: network.appviewUrl,
      BLUESKY_PLC_URL: network.plcUrl,
      BLUESKY_HANDLE_RESOLVER_URL: network.pdsUrl,
      BLUESKY_ALLOW_HTTP: 'true',
    });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await network?.close();
  }, 60_000);

  it('refuses as a referee a new account whose profile claims an old createdAt (REQUIRES_VERIFICATION)', async () => {
    const appview = new BlueskyAppView(network.appviewUrl);
    // The open-source AppView believes the profile record: the date the member wrote.
    const data = await appview.getProfile({ actor: did.newbie ?? '' });
    expect(data.createdAt).toBe(CLAIMED);

    const resolver = new IdResolver({ plcUrl: network.plcUrl, fetch: globalThis.fetch });
    const identityHandle = async (d: string) =>
      parseToAtprotoDocument(await resolver.did.ensureResolve(d)).handle ?? d;
    const profile = await linkedProfileOf(
      { appview, accountAge: new AccountAge({ plcUrl: network.plcUrl }), identityHandle },
      did.newbie ?? '',
    );
    expect(profile.followers).toBe(1);
    expect(profile.createdAt).not.toBeNull();
    expect(Math.abs((profile.createdAt as Date).getTime() - Date.now())).toBeLessThan(HOUR);

    const db = t.database.db;
    const { rules } = await activeRules(db);
    await saveRules(db, { ...rules, minFollowers: 1 }, 'test: the gate reads one follower');
    const now = new Date();
    const login = (networkUserId: string, handle: string, created: Date | null, followers: number) =>
      upsertAccount(db, {
        networkUserId,
        handle,
        avatarUrl: null,
        networkCreatedAt: created,
        followers,
        sealedAccessToken: 'sealed',
        sealedRefreshToken: null,
        tokenExpiresAt: new Date(now.getTime() + HOUR),
        scopes: 'atproto',
        now,
      });
    const referrer = await login(did.alice ?? '', 'alice.test', new Date('2020-01-01'), 50);
    await bindBrowser(db, hashBrowserId('a-browser-of-alice'), referrer.id, now);
    const referee = await login(profile.networkUserId, profile.handle, profile.createdAt, profile.followers);
    await bindBrowser(db, hashBrowserId('a-browser-of-newbie'), referee.id, now);

    // The claimed date would have passed the gate; the directory's does not.
    const gate = { minAccountAgeDays: rules.minAccountAgeDays, minFollowers: 1 };
    expect(passesAntiBotGate({ network_created_at: new Date(CLAIMED), followers: 1 }, gate, Date.now())).toBe(
      true,
    );
    const refused = await applyReferral(
      { db, rules: { reservedHandles: [] }, now: () => Date.now() },
      referee,
      'alice.test',
      `account:${referee.id}`,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CatalogueError);
    expect((refused as CatalogueError).code).toBe('REQUIRES_VERIFICATION');
  });

  it("reads profiles from the AppView, checked against the query's own schema: a handle out of shape or unknown is no author, an answer out of shape fails the call", async () => {
    const reader = new BlueskySocialNetwork({
      appviewUrl: network.appviewUrl,
      postUrlBase: 'https://bsky.app',
    });
    const author = await reader.authorByHandle('@newbie.test');
    expect(author).toMatchObject({ networkUserId: did.newbie, handle: 'newbie.test', followers: 1 });
    expect(await reader.authorsByIds([did.alice as Did, did.fan as Did])).toHaveLength(2);

    // Refused before any call: the AppView is never asked for a handle out of shape.
    const asked: string[] = [];
    const counting: typeof fetch = (input, init) => {
      asked.push(String(input));
      return fetch(input, init);
    };
    const countingReader = new BlueskySocialNetwork({
      appviewUrl: network.appviewUrl,
      postUrlBase: 'https://bsky.app',
      fetch: counting,
    });
    expect(await countingReader.authorByHandle('not a handle')).toBeNull();
    expect(asked).toEqual([]);
    // Asked, and refused by the AppView itself (400).
    expect(await countingReader.authorByHandle('nobody-here.test')).toBeNull();
    expect(asked).toHaveLength(1);

    // The real AppView's answer with the profile's DID taken out: the call fails rather than reading it.
    const broken: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      const body = (await answer.json()) as Record<string, unknown>;
      delete body.did;
      return new Response(JSON.stringify(body), { status: answer.status, headers: answer.headers });
    };
    const appview = new BlueskyAppView(network.appviewUrl, broken);
    await expect(appview.getProfile({ actor: did.newbie as Did })).rejects.toBeInstanceOf(
      ClientValidationError,
    );
    // And a refusal keeps its status and the AppView's error name.
    await expect(
      new BlueskyAppView(network.appviewUrl).getProfile({ actor: 'nobody-here.test' }),
    ).rejects.toMatchObject({ status: 400, error: 'InvalidRequest' });
  });

  it('dates a did:plc by its first operation in the directory, once per account (bounded), and a did:web not at all', async () => {
    let asked = 0;
    const counting: typeof fetch = (input, init) => {
      asked++;
      return fetch(input, init);
    };
    const age = new AccountAge({ plcUrl: network.plcUrl, fetch: counting, maxEntries: 2 });
    const first = await age.createdAt(did.alice ?? '');
    const audit = (await (await fetch(`${network.plcUrl}/${did.alice}/log/audit`)).json()) as Array<{
      createdAt: string;
    }>;
    expect(first?.toISOString()).toBe(new Date(audit[0]?.createdAt ?? '').toISOString());
    expect(await age.createdAt(did.alice ?? '')).toEqual(first);
    expect(asked).toBe(1);
    for (const name of ['newbie', 'fan', 'gone']) await age.createdAt(did[name] ?? '');
    expect(age.size).toBe(2);
    expect(await age.createdAt('did:web:mana.example.org')).toBeNull();
    expect(asked).toBe(4);
    expect(await age.createdAt('did:plc:aaaaaaaaaaaaaaaaaaaaaaaa')).toBeNull(); // unknown to the directory
  });

  it("answers 503 when the member's own server does not answer, logged as a warning without a stack trace", async () => {
    // gone.test's identity now names a PDS nobody listens on.
    const dead = `http://127.0.0.1:${await freePort()}`;
    await network.network.plc
      .getClient()
      .updatePds(did.gone ?? '', network.network.pds.ctx.plcRotationKey, dead);
    const browser = await newBrowser(t);
    const before = t.logs.length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/auth/bluesky/start',
      headers: { ...browser.headers, ...cookieHeader(browser, '/auth/bluesky/start') },
      payload: { redirectAfter: 'http://127.0.0.1:1/auth/callback', handle: 'gone.test' },
    });
    keepCookies(browser, response.headers['set-cookie']);
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json()).toEqual({ ok: false, data: null, error: expect.anything() });
    const lines = t.logs.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    const warned = lines.filter((l) => l.level === 40 && l.code === 'NETWORK_ERROR');
    expect(warned).toHaveLength(1);
    expect(String(warned[0]?.msg)).toContain('gone.test did not answer');
    expect(String(warned[0]?.reason)).not.toBe('');
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(lines.some((l) => JSON.stringify(l).includes('"stack"'))).toBe(false);
  });

  it('logs a refused code exchange as a warning with the reason, without a stack trace', async () => {
    const browser = await newBrowser(t);
    const started = await t.app.inject({
      method: 'POST',
      url: '/auth/bluesky/start',
      headers: { ...browser.headers, ...cookieHeader(browser, '/auth/bluesky/start') },
      payload: { redirectAfter: 'http://127.0.0.1:1/auth/callback', handle: 'alice.test' },
    });
    expect(started.statusCode, started.body).toBe(200);
    keepCookies(browser, started.headers['set-cookie']);
    const [attempt] = await t.database.db
      .selectFrom('oauth_attempts')
      .select('state')
      .where('used', '=', false)
      .orderBy('created_at', 'desc')
      .limit(1)
      .execute();
    const before = t.logs.length;
    const query = `state=${encodeURIComponent(attempt?.state ?? '')}&code=not-a-code&iss=${encodeURIComponent(network.pdsUrl)}`;
    const response = await t.app.inject({
      method: 'GET',
      url: `/auth/bluesky/callback?${query}`,
      headers: cookieHeader(browser, '/auth/bluesky/callback'),
    });
    expect(response.statusCode).toBe(302);
    expect(new URL(String(response.headers.location)).searchParams.get('error')).toBe('exchange_failed');
    const lines = t.logs.slice(before).map((line) => JSON.parse(line) as Record<string, unknown>);
    const warned = lines.filter((l) => l.msg === 'the network refused the code exchange');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 40, network: 'bluesky', reason: expect.any(String) });
    expect(lines.filter((l) => Number(l.level) >= 50)).toEqual([]);
    expect(lines.some((l) => JSON.stringify(l).includes('"stack"'))).toBe(false);
  });
});
