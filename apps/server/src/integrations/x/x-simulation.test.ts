import { describe, expect, it } from 'vitest';
import { simulatedXApp } from '../../config/config';
import { buildTestApp } from '../../test/test-app';

describe('the simulated X inside the server', () => {
  it('is mounted at /x-sim without X credentials, with the demo world and app', async () => {
    const t = await buildTestApp('pglite');
    try {
      const search = await t.app.inject({
        url: '/x-sim/2/tweets/search/recent?query=%23ManaBoard&max_results=10',
        headers: { authorization: `Bearer ${simulatedXApp.bearerToken}` },
      });
      expect(search.statusCode).toBe(200);
      expect(search.json().meta.result_count).toBe(10);
      const page = await t.app.inject({
        url: `/x-sim/i/oauth2/authorize?response_type=code&client_id=${simulatedXApp.clientId}&redirect_uri=${encodeURIComponent(`${t.config.publicOrigin}/auth/twitter/callback`)}&scope=tweet.read&state=s&code_challenge=abc&code_challenge_method=S256`,
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Handle');
      // Its stylesheet is served by the simulation itself (the CSP allows only our origin).
      expect((await t.app.inject({ url: '/x-sim/assets/sign-in.css' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is absent when real X credentials are configured', async () => {
    const t = await buildTestApp('pglite', {
      X_CLIENT_ID: 'id',
      X_CLIENT_SECRET: 'secret',
      X_BEARER_TOKEN: 'bearer',
    });
    try {
      const response = await t.app.inject({ url: '/x-sim/2/users/me' });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses half-configured X credentials', async () => {
    await expect(buildTestApp('pglite', { X_CLIENT_ID: 'id' })).rejects.toThrow('must be set together');
  });
});
