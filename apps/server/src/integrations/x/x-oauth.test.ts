import { afterEach, describe, expect, it } from 'vitest';
import { World } from '@manaboard/x-sim';
import { SIM_CALLBACK, startSimulatedX } from '../../test/simulated-x';
import { XApiError } from './x-errors';
import { freshTokens, REFRESH_MARGIN_MS, XOAuth } from './x-oauth';
import { XApi } from './x-api';
import { XHttp } from './x-http';

const NOW = Date.parse('2026-11-22T12:00:00Z');

/** What a person does on the simulated sign-in page: submit the form with a handle (or Cancel). */
async function signInAs(
  authorizeUrl: string,
  handle: string,
  decision: 'allow' | 'deny' = 'allow',
): Promise<URL> {
  const page = await fetch(authorizeUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Authorize app');
  const form = new URLSearchParams(new URL(authorizeUrl).searchParams);
  form.set('handle', handle);
  form.set('decision', decision);
  const answer = await fetch(authorizeUrl.split('?')[0] ?? '', {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

describe('XOAuth (oauth4webapi) against the simulated X', () => {
  let sim: Awaited<ReturnType<typeof startSimulatedX>>;
  afterEach(async () => {
    await sim.close();
  });

  async function setup() {
    const world = new World(NOW);
    world.createUser({ username: 'ann', followers: 12, createdAt: NOW - 400 * 86_400_000 });
    sim = await startSimulatedX(world);
    const oauth = new XOAuth(sim.config, () => world.now());
    const api = new XApi(
      new XHttp({ baseUrl: sim.address, timeoutMs: 5_000, clock: world.clock.asClientClock() }),
      sim.config.bearerToken,
    );
    return { world, oauth, api };
  }

  it('links with PKCE S256 and a one-time state, then reads users/me', async () => {
    const { oauth, api, world } = await setup();
    const start = await oauth.start(SIM_CALLBACK);
    const url = new URL(start.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')).toBe(start.state);
    expect(url.searchParams.get('scope')).toBe('tweet.read users.read like.read offline.access');

    const callback = await signInAs(start.url, 'ann');
    const tokens = await oauth.exchange(callback.searchParams, {
      state: start.state,
      redirectUri: SIM_CALLBACK,
      codeVerifier: start.codeVerifier,
    });
    expect(tokens.expiresAt - world.now()).toBe(2 * 60 * 60 * 1000);
    expect(tokens.refreshToken).toBeTruthy();
    const me = await api.me(tokens.accessToken);
    expect(me.data).toMatchObject({ username: 'ann', public_metrics: { followers_count: 12 } });

    // The same code again is refused by X.
    const replay = await oauth
      .exchange(callback.searchParams, {
        state: start.state,
        redirectUri: SIM_CALLBACK,
        codeVerifier: start.codeVerifier,
      })
      .catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(XApiError);
  });

  it('refuses a callback whose state is not ours, or with a wrong verifier', async () => {
    const { oauth } = await setup();
    const start = await oauth.start(SIM_CALLBACK);
    const callback = await signInAs(start.url, 'ann');
    await expect(
      oauth.exchange(callback.searchParams, {
        state: 'someone-elses',
        redirectUri: SIM_CALLBACK,
        codeVerifier: start.codeVerifier,
      }),
    ).rejects.toBeInstanceOf(XApiError);
    const other = await oauth.start(SIM_CALLBACK);
    const second = await signInAs(other.url, 'ann');
    const wrong = await oauth
      .exchange(second.searchParams, {
        state: other.state,
        redirectUri: SIM_CALLBACK,
        codeVerifier: start.codeVerifier,
      })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 400 });
    expect((wrong as Error).message).toContain('code verifier');
  });

  it('reports Cancel as an access_denied error', async () => {
    const { oauth } = await setup();
    const start = await oauth.start(SIM_CALLBACK);
    const callback = await signInAs(start.url, 'ann', 'deny');
    const error = await oauth
      .exchange(callback.searchParams, {
        state: start.state,
        redirectUri: SIM_CALLBACK,
        codeVerifier: start.codeVerifier,
      })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('access_denied');
  });

  it('refreshes before expiry (rotating the refresh token) and revokes', async () => {
    const { oauth, api, world } = await setup();
    const start = await oauth.start(SIM_CALLBACK);
    const callback = await signInAs(start.url, 'ann');
    const tokens = await oauth.exchange(callback.searchParams, {
      state: start.state,
      redirectUri: SIM_CALLBACK,
      codeVerifier: start.codeVerifier,
    });

    expect(await freshTokens(tokens, oauth, world.now())).toBe(tokens);
    world.advance(2 * 60 * 60 * 1000 - REFRESH_MARGIN_MS + 1);
    const renewed = await freshTokens(tokens, oauth, world.now());
    expect(renewed.accessToken).not.toBe(tokens.accessToken);
    expect(renewed.refreshToken).not.toBe(tokens.refreshToken);
    await expect(oauth.refresh(tokens.refreshToken ?? '')).rejects.toBeInstanceOf(XApiError);

    await oauth.revoke(renewed.accessToken);
    await expect(api.me(renewed.accessToken)).rejects.toMatchObject({ status: 401 });
  });
});
