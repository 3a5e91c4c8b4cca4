import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createXClient } from '../../integrations/x/x-client';
import { REFRESH_MARGIN_MS } from '../../integrations/x/x-oauth';
import { parseKey, TokenCipher } from '../../security/token-cipher';
import { TokenVault } from '../../security/token-vault';
import { linkedBrowser, startLinkingTest, TEST_ORIGIN, type LinkingTest } from '../../test/linking-flow';
import { testDatabaseKinds } from '../../test/test-database';
import { checkRedirectAfter, memberAccessToken, type LinkingDeps } from './linking.service';

describe.each(testDatabaseKinds())('linking service on %s', (kind) => {
  let t: LinkingTest;
  let deps: LinkingDeps;
  beforeAll(async () => {
    t = await startLinkingTest(kind, { LOG_LEVEL: 'silent' });
    const clock = t.world.clock.asClientClock();
    deps = {
      db: t.database.db,
      x: createXClient(t.sim.config, t.database.db, { clock }),
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
    const me = await deps.x.api.me(renewed ?? '');
    expect(me.data?.username).toBe('token_user');
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
});
