import { describe, expect, it } from 'vitest';
import { publicConfigResponseSchema } from '@manaboard/contract';
import { buildTestApp } from '../../test/test-app';

describe('GET /api/public/config', () => {
  it.each([
    [{}, true],
    [{ X_CLIENT_ID: 'id', X_CLIENT_SECRET: 'secret', X_BEARER_TOKEN: 'bearer' }, false],
  ])('tells the web app whether X is simulated (%o)', async (env, simulated) => {
    const t = await buildTestApp('pglite', env);
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/public/config' });
      expect(response.statusCode).toBe(200);
      expect(publicConfigResponseSchema.parse(response.json()).data).toEqual({
        socialNetwork: 'x',
        simulated,
      });
      expect(response.body).not.toContain('secret');
    } finally {
      await t.close();
    }
  });
});
