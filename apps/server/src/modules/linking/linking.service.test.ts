import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKey, TokenCipher } from '../../security/token-cipher';
import { TokenVault } from '../../security/token-vault';
import { linkedBrowser, startLinkingTest, TEST_ORIGIN, type LinkingTest } from '../../test/linking-flow';
import { REFRESH_MARGIN_MS, simulatedXLinking } from '../../test/simulated-x';
import { testDatabaseKinds } from '../../test/test-database';
import { hashBrowserId } from '../identity/browser-id';
import * as accounts from './accounts.repository';
import { checkRedirectAfter, memberAccessToken, unlinkBrowser, type LinkingDeps } from './linking.service';

describe.each(testDatabaseKinds())('linking service on %s', (kind) => {
  let t: LinkingTest;
  let deps: LinkingDeps;
  let me: ReturnType<typeof simulatedXLinking>['me'];
  beforeAll(async () => {
    t = await startLinkingTest(kind, { LOG_LEVEL: 'silent' });
    const clock = t.world.clock.asClientClock();
    const network = simulatedXLinking(t.sim.config, t.database.db, clock);
    me = network.me;
    deps = {
      db: t.database.db,
      network: network.linking,
      vault: new TokenVault(new TokenCipher(parseKey(t.tokenKey))),
      publicOrigin: TEST_ORIGIN,
      now: clock.now,
      log: { warn: () => undefined, info: () => undefined },
    };
  });
  afterAll(async () => {
    await t.close();
  });

  it('refreshes a member’s token before it expires and stores the rotated tokens sealed', async () => {
    await linkedBrowser(t, 'token_user');
    const before = await t.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('handle', '=', 'token_user')
      .executeTakeFirstOrThrow();
    const first = await memberAccessToken(deps, before.id);
    expect(first).toBe(await deps.vault.open(before.access_token ?? ''));

    t.world.advance(2 * 60 * 60 * 1000 - REFRESH_MARGIN_MS + 1);
    const renewed = await memberAccessToken(deps, before.id);
    expect(renewed).not.toBe(first);
    const after = await t.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', before.id)
      .executeTakeFirstOrThrow();
    expect(await deps.vault.open(after.access_token ?? '')).toBe(renewed);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    const profile = await me(renewed ?? '');
    expect(profile.data?.username).toBe('token_user');
  });

  it('accepts only the two return paths on the public origin', () => {
    expect(checkRedirectAfter(TEST_ORIGIN, `${TEST_ORIGIN}/linked`)).toBe(`${TEST_ORIGIN}/linked`);
    expect(checkRedirectAfter(TEST_ORIGIN, `${TEST_ORIGIN}/auth/callback`)).toBe(
      `${TEST_ORIGIN}/auth/callback`,
    );
    for (const bad of ['/linked', 'not a url', `${TEST_ORIGIN}/linked#x`, `${TEST_ORIGIN}/auth/callback/`]) {
      expect(() => checkRedirectAfter(TEST_ORIGIN, bad)).toThrow(/redirectAfter/);
    }
  });

  it('keeps the tokens a login is storing while the last other browser unlinks', async () => {
    const leaving = await linkedBrowser(t, 'race_unlinker');
    const account = await t.database.db
      .selectFrom('accounts')
      .selectAll()
      .where('handle', '=', 'race_unlinker')
      .executeTakeFirstOrThrow();
    const fresh = await deps.vault.seal('fresh-access-token');
    let written: () => void = () => undefined;
    const loginWrote = new Promise<void>((resolve) => {
      written = () => resolve();
    });
    let finish: () => void = () => undefined;
    const loginMayCommit = new Promise<void>((resolve) => {
      finish = () => resolve();
    });
    const now = new Date(deps.now());
    // A login from another browser, caught mid-transaction: new tokens stored, browser bound, not committed.
    const login = t.database.db.transaction().execute(async (trx) => {
      await accounts.upsertAccount(trx, {
        networkUserId: account.network_user_id,
        handle: account.handle,
        avatarUrl: account.avatar_url,
        networkCreatedAt: account.network_created_at,
        followers: account.followers,
        sealedAccessToken: fresh,
        sealedRefreshToken: null,
        tokenExpiresAt: new Date(now.getTime() + 3_600_000),
        scopes: account.scopes,
        now,
      });
      await accounts.bindBrowser(trx, hashBrowserId(randomUUID()), account.id, now);
      written();
      await loginMayCommit;
    });
    await loginWrote;
    const unlinked = unlinkBrowser(deps, hashBrowserId(leaving.id));
    // Give the unlink time to run into the login's transaction before that commits.
    await new Promise((resolve) => setTimeout(resolve, 300));
    finish();
    await login;
    expect(await unlinked).toEqual({ unlinked: true });
    const after = await accounts.findAccountById(t.database.db, account.id);
    expect(after?.access_token).toBe(fresh);
  });
});
