import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfTokenResponseSchema, referralFailureSchema } from '@manaboard/contract';
import { buildApp } from '../../composition/app';
import { loadConfig } from '../../config/config';
import type { DatabaseHandle } from '../../db/database';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';

async function appOn(database: DatabaseHandle): Promise<FastifyInstance> {
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database });
  // A probe write of the referral service: the CSRF guard applies to it like to every referral write.
  app.post('/referrals/probe', async () => ({ ok: true, data: { done: true }, error: null }));
  await app.ready();
  return app;
}

describe.each(testDatabaseKinds())('identity and CSRF on %s', (kind) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    app = await appOn(database);
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const tokenFor = async (browserId: string) => {
    const response = await app.inject({
      method: 'GET',
      url: '/csrf-token',
      headers: { 'x-user-id': browserId },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return csrfTokenResponseSchema.parse(response.json()).data.csrfToken;
  };
  const write = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/referrals/probe', payload: {}, headers });

  it.each([undefined, '', 'not-a-uuid', `${randomUUID()}x`, "' or 1=1 --"])(
    'answers 401 UNAUTHORIZED to X-User-Id %j',
    async (id) => {
      const response = await app.inject({
        method: 'GET',
        url: '/csrf-token',
        headers: id === undefined ? {} : { 'x-user-id': id },
      });
      expect(response.statusCode).toBe(401);
      expect(referralFailureSchema.parse(response.json()).error).toEqual({
        code: 'UNAUTHORIZED',
        message: 'Please connect your social account first.',
      });
    },
  );

  it('lets a write through with its own browser’s token', async () => {
    const browser = randomUUID();
    const response = await write({ 'x-user-id': browser, 'x-csrf-token': await tokenFor(browser) });
    expect(response.statusCode).toBe(200);
  });

  it('refuses writes without a token, with a bad one, or with another browser’s', async () => {
    const browser = randomUUID();
    const missing = await write({ 'x-user-id': browser });
    expect(missing.statusCode).toBe(403);
    expect(missing.json().error).toEqual({
      code: 'CSRF_TOKEN_REQUIRED',
      message: 'Security token is required. Please refresh and try again.',
    });
    for (const token of ['junk', await tokenFor(randomUUID())]) {
      const refused = await write({ 'x-user-id': browser, 'x-csrf-token': token });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toEqual({
        code: 'CSRF_INVALID',
        message: 'Security token expired. Please try again.',
      });
    }
    const noBrowser = await write({ 'x-csrf-token': await tokenFor(browser) });
    expect(noBrowser.statusCode).toBe(401);
  });

  it('accepts a token issued by another process on the same database', async () => {
    const browser = randomUUID();
    const other = await appOn(database);
    try {
      const token = csrfTokenResponseSchema.parse(
        (await other.inject({ method: 'GET', url: '/csrf-token', headers: { 'x-user-id': browser } })).json(),
      ).data.csrfToken;
      expect((await write({ 'x-user-id': browser, 'x-csrf-token': token })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
