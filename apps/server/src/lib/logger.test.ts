import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app';

describe('request logging', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('pglite', { LOG_LEVEL: 'trace' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('never writes secret headers to the log', async () => {
    const userId = randomUUID();
    const csrf = `csrf-${randomUUID()}`;
    const bearer = `Bearer ${randomUUID()}`;
    const cookie = `session=${randomUUID()}`;
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/public/announcements?page=1&limit=50',
      headers: {
        'x-user-id': userId,
        'x-csrf-token': csrf,
        authorization: bearer,
        cookie,
        'user-agent': 'vitest-agent',
      },
    });
    expect(response.statusCode).toBe(200);
    const text = t.logs.join('\n');
    // The request was logged, with its harmless headers...
    expect(text).toContain('vitest-agent');
    expect(text).toContain('[redacted]');
    // ...and none of its secrets.
    for (const secret of [userId, csrf, bearer, cookie]) expect(text).not.toContain(secret);
  });
});
