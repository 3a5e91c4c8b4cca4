import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildWorld } from './build-world';
import { APP_BEARER, basic, signIn, simApp, TEST_CLIENT } from './test-support';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const FIELDS = ['tweet.fields', 'user.fields', 'expansions', 'place.fields'];
const AUTHORIZE = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

describe('malformed requests', () => {
  it('never get a 5xx, and the API’s 400s carry errors[]', async () => {
    const world = buildWorld({ seed: 4, now: NOW, members: 5 });
    const { app } = await simApp(world, { rateLimitScale: Infinity });
    const post = world.postsByTime().find((p) => world.isVisible(p));
    const user = world.allUsers()[1];
    const postId = post?.id ?? '1';
    const { tokens } = await signIn(
      app,
      user?.username ?? '',
      'tweet.read users.read like.read offline.access',
    );

    type Endpoint = { method: 'GET' | 'POST'; path: string; names: string[] };
    const endpoints: Endpoint[] = [
      {
        method: 'GET',
        path: '/2/tweets/search/recent',
        names: [
          'query',
          'since_id',
          'until_id',
          'start_time',
          'end_time',
          'max_results',
          'next_token',
          'pagination_token',
          'sort_order',
          ...FIELDS,
        ],
      },
      { method: 'GET', path: '/2/tweets', names: ['ids', ...FIELDS] },
      {
        method: 'GET',
        path: `/2/tweets/${postId}/retweeted_by`,
        names: ['max_results', 'pagination_token', ...FIELDS],
      },
      {
        method: 'GET',
        path: `/2/tweets/${postId}/quote_tweets`,
        names: ['max_results', 'pagination_token', ...FIELDS],
      },
      {
        method: 'GET',
        path: `/2/users/${user?.id}/liked_tweets`,
        names: ['max_results', 'pagination_token', ...FIELDS],
      },
      { method: 'GET', path: `/2/users/by/username/${user?.username}`, names: FIELDS },
      { method: 'GET', path: '/2/users/me', names: FIELDS },
      { method: 'GET', path: `/avatars/${user?.id}.svg`, names: [] },
      { method: 'GET', path: '/i/oauth2/authorize', names: AUTHORIZE },
      {
        method: 'POST',
        path: '/i/oauth2/authorize',
        names: [...AUTHORIZE, 'handle', 'decision', 'account_age_days', 'followers'],
      },
      {
        method: 'POST',
        path: '/2/oauth2/token',
        names: ['grant_type', 'code', 'code_verifier', 'redirect_uri', 'refresh_token', 'client_id'],
      },
      { method: 'POST', path: '/2/oauth2/revoke', names: ['token', 'token_type_hint', 'client_id'] },
    ];
    // Plausible values (so that requests get deep into the handlers) mixed with junk.
    const value = fc.oneof(
      { arbitrary: fc.string({ maxLength: 24 }), weight: 1 },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          '10',
          '100',
          '5',
          '-1',
          postId,
          user?.id ?? '',
          `${postId},x`,
          `${postId},${postId}`,
          new Date(NOW - 86_400_000).toISOString(),
          new Date(NOW - 9 * 86_400_000).toISOString(),
          '#ManaBoard (a OR',
          '(#ManaBoard OR manaboard) -is:retweet',
          'from:mana_fox OR conversation_id:1',
          'public_metrics,author_id,entities',
          'author_id,referenced_tweets.id',
          'created_at,public_metrics',
          'eyJ2IjoiMTIzIn0',
          'eyJ2Ijo1fQ',
          'allow',
          'S256',
          'code',
          'authorization_code',
          'refresh_token',
          'tweet.read users.read',
          TEST_CLIENT.clientId,
          TEST_CLIENT.redirectUris[0] ?? '',
          tokens.refresh_token ?? '',
        ),
      },
    );
    const request = fc.constantFrom(...endpoints).chain((endpoint) =>
      fc.record({
        endpoint: fc.constant(endpoint),
        params: fc.dictionary(fc.constantFrom(...endpoint.names, 'x'), value, { maxKeys: 5 }),
        wrongMethod: fc.nat(9).map((n) => n === 0),
        authorization: fc.oneof(
          {
            arbitrary: fc.constantFrom(`Bearer ${APP_BEARER}`, `Bearer ${tokens.access_token}`, basic),
            weight: 8,
          },
          { arbitrary: fc.constantFrom('Bearer nope', 'Basic %%%', ''), weight: 1 },
        ),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ endpoint, params, wrongMethod, authorization }) => {
        const method = wrongMethod ? (endpoint.method === 'GET' ? 'POST' : 'GET') : endpoint.method;
        const form = new URLSearchParams(params).toString();
        const response = await app.inject({
          method,
          url: method === 'POST' ? endpoint.path : `${endpoint.path}?${form}`,
          headers: {
            authorization,
            ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(method === 'POST' ? { payload: form } : {}),
        });
        expect(response.statusCode).toBeLessThan(500);
        if (
          response.statusCode === 400 &&
          endpoint.path.startsWith('/2/') &&
          !endpoint.path.includes('oauth2')
        ) {
          expect(response.json().errors[0].message).toEqual(expect.any(String));
        }
      }),
      { numRuns: 1500 },
    );
  });
});
