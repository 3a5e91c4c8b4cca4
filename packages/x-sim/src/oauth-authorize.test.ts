import { beforeEach, describe, expect, it } from 'vitest';
import { snowflakeTime } from './snowflake';
import { authorizeParams, FORM, signIn, simApp, TEST_CLIENT } from './test-support';
import { World } from './world';

const redirect = TEST_CLIENT.redirectUris[0] ?? '';

describe('simulated X OAuth 2.0: the authorize page', () => {
  let world: World;
  let app: Awaited<ReturnType<typeof simApp>>['app'];
  beforeEach(async () => {
    world = new World(Date.parse('2026-11-22T12:00:00Z'));
    world.createUser({ username: 'alice', followers: 300, createdAt: Date.parse('2020-01-01') });
    ({ app } = await simApp(world));
  });

  /** Submits the sign-in form with a decision, a handle and any extra fields. */
  const submit = (fields: Record<string, string>) => {
    const { params } = authorizeParams();
    for (const [name, value] of Object.entries(fields)) params.set(name, value);
    return app.inject({
      method: 'POST',
      url: '/i/oauth2/authorize',
      payload: params.toString(),
      headers: FORM,
    });
  };

  it('renders the sign-in page with a Handle field and both buttons', async () => {
    const { params } = authorizeParams();
    const page = await app.inject({ url: `/i/oauth2/authorize?${params}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<label for="handle">Handle</label>');
    expect(page.body).toContain('Authorize app');
    expect(page.body).toContain('Cancel');
    expect(page.body).not.toMatch(/<script|\sstyle=/);
  });

  it('refuses unknown clients and redirect URIs on a page, never by redirecting', async () => {
    const cases: Record<string, string>[] = [
      { client_id: 'nope' },
      { redirect_uri: 'https://evil.example/cb' },
      { redirect_uri: `${redirect}/extra` },
      { state: '' },
    ];
    for (const overrides of cases) {
      const { params } = authorizeParams(overrides);
      const response = await app.inject({ url: `/i/oauth2/authorize?${params}` });
      expect(response.statusCode).toBe(400);
      expect(response.headers.location).toBeUndefined();
    }
  });

  it('refuses an unknown PKCE method, a missing challenge and unknown scopes back at the client', async () => {
    const refused = async (overrides: Record<string, string>) => {
      const response = await app.inject({ url: `/i/oauth2/authorize?${authorizeParams(overrides).params}` });
      const location = new URL(String(response.headers.location));
      expect(location.searchParams.get('state')).toBe('xyz');
      return location.searchParams.get('error');
    };
    expect(await refused({ code_challenge_method: 'S512' })).toBe('invalid_request');
    expect(await refused({ code_challenge_method: '' })).toBe('invalid_request');
    expect(await refused({ code_challenge_method: 'PLAIN ' })).toBe('invalid_request');
    expect(await refused({ code_challenge: '' })).toBe('invalid_request');
    expect(await refused({ scope: 'tweet.read admin' })).toBe('invalid_scope');
    expect(await refused({ response_type: 'token' })).toBe('unsupported_response_type');
  });

  it('sends Cancel back as access_denied with the state', async () => {
    const response = await submit({ decision: 'deny' });
    const location = new URL(String(response.headers.location));
    expect(location.origin + location.pathname).toBe(redirect);
    expect(Object.fromEntries(location.searchParams)).toEqual({ error: 'access_denied', state: 'xyz' });
  });

  it('signs a known handle in and answers users/me with user fields', async () => {
    const { tokens } = await signIn(app, 'alice');
    expect(tokens.scope).toBe('tweet.read users.read like.read offline.access');
    const me = await app.inject({
      url: '/2/users/me?user.fields=created_at,public_metrics,profile_image_url',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.json().data).toMatchObject({
      username: 'alice',
      created_at: '2020-01-01T00:00:00.000Z',
      public_metrics: { followers_count: 300 },
    });
  });

  it('creates an unknown handle with the given account age and followers', async () => {
    const response = await submit({
      decision: 'allow',
      handle: 'newbie_1',
      account_age_days: '3',
      followers: '2',
    });
    expect(new URL(String(response.headers.location)).searchParams.get('code')).toBeTruthy();
    const user = world.userByUsername('newbie_1');
    expect(user?.followers).toBe(2);
    expect(world.now() - (user?.createdAt ?? 0)).toBe(3 * 86_400_000);
    expect(snowflakeTime(user?.id ?? '')).toBe(user?.createdAt);

    // An account older than X's snowflakes still gets a valid (small) numeric id.
    await submit({ decision: 'allow', handle: 'veteran', account_age_days: '7000' });
    expect(world.userByUsername('veteran')?.id).toMatch(/^\d{1,19}$/);
  });

  it('refuses handles and numbers X would refuse, on the page', async () => {
    const cases: Record<string, string>[] = [
      { handle: '' },
      { handle: 'way_too_long_handle_x' },
      { handle: 'bad-dash' },
      { handle: 'émile' },
      { handle: 'newcomer', account_age_days: '-3' },
      { handle: 'newcomer', followers: 'many' },
    ];
    for (const fields of cases) {
      const response = await submit({ decision: 'allow', ...fields });
      expect(response.statusCode).toBe(400);
      expect(response.body).toMatch(/role="alert">/);
      expect(response.headers.location).toBeUndefined();
    }
    expect(world.userByUsername('newcomer')).toBeUndefined();
  });

  it('refuses a sign-in of a suspended account on the page itself', async () => {
    world.suspendUser(world.userByUsername('alice')?.id ?? '');
    const response = await submit({ decision: 'allow', handle: '@alice' });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('suspended');
    expect(response.headers.location).toBeUndefined();
  });
});
