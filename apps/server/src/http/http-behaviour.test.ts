import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, BODY_LIMIT_BYTES } from '../composition/app';
import { loadConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { openTestDatabase } from '../test/test-database';
import { internalErrorMessage } from '../lib/errors';

/**
 * The server's global behaviour, checked through probe routes added to the real app before it is ready:
 * both error dialects, 415/413/400 on bodies, and no internals in a 500.
 */
describe('HTTP behaviour', () => {
  let app: FastifyInstance;
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), database });
    app.post('/referrals/probe', async (request) => ({ ok: true, data: request.body, error: null }));
    app.post('/api/probe', async (request) => ({ success: true, data: request.body }));
    app.get('/api/explode', async () => {
      throw new Error('relation "secret_table" does not exist at /srv/app/src/db.ts:42');
    });
    app.get('/referrals/explode', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x')");
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('accepts JSON writes', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/probe', payload: { a: 1 } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { a: 1 } });
  });

  it.each([
    ['text/plain', 'hello'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/xml', '<a/>'],
  ])('answers 415 to a %s body, in each dialect', async (type, payload) => {
    const community = await app.inject({
      method: 'POST',
      url: '/api/probe',
      payload,
      headers: { 'content-type': type },
    });
    expect(community.statusCode).toBe(415);
    expect(community.json()).toEqual({
      success: false,
      error: 'Request body must be JSON (Content-Type: application/json)',
    });
    const referral = await app.inject({
      method: 'POST',
      url: '/referrals/probe',
      payload,
      headers: { 'content-type': type },
    });
    expect(referral.statusCode).toBe(415);
    expect(referral.json()).toEqual({
      ok: false,
      data: null,
      error: {
        message: 'Request body must be JSON (Content-Type: application/json)',
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    });
  });

  it('answers 413 above the 16 KiB body limit and accepts just under it', async () => {
    const big = JSON.stringify({ text: 'x'.repeat(BODY_LIMIT_BYTES) });
    const tooBig = await app.inject({
      method: 'POST',
      url: '/referrals/probe',
      payload: big,
      headers: { 'content-type': 'application/json' },
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    const fits = JSON.stringify({ text: 'x'.repeat(BODY_LIMIT_BYTES - 100) });
    const ok = await app.inject({
      method: 'POST',
      url: '/api/probe',
      payload: fits,
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 400 to malformed JSON without echoing parser internals', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/probe',
      payload: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: 'Request body is not valid JSON' });
  });

  it('hides internal errors behind a generic 500 in both dialects', async () => {
    const community = await app.inject({ method: 'GET', url: '/api/explode' });
    expect(community.statusCode).toBe(500);
    expect(community.json()).toEqual({ success: false, error: internalErrorMessage });
    expect(community.body).not.toMatch(/secret_table|\/srv|db\.ts|stack/);
    const referral = await app.inject({ method: 'GET', url: '/referrals/explode' });
    expect(referral.statusCode).toBe(500);
    expect(referral.json()).toEqual({
      ok: false,
      data: null,
      error: { message: internalErrorMessage, code: 'INTERNAL_ERROR' },
    });
  });

  it('answers unknown API paths with JSON 404s, never the HTML page', async () => {
    const community = await app.inject({
      method: 'GET',
      url: '/api/nothing-here',
      headers: { accept: 'text/html' },
    });
    expect(community.statusCode).toBe(404);
    expect(community.headers['content-type']).toContain('application/json');
    expect(community.json()).toEqual({ success: false, error: 'Route GET /api/nothing-here not found' });
    const referral = await app.inject({ method: 'DELETE', url: '/referrals/nothing?x=1' });
    expect(referral.statusCode).toBe(404);
    expect(referral.json()).toMatchObject({ ok: false, data: null, error: { code: 'NOT_FOUND' } });
  });

  it('sends security headers written for this app on pages', async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(String(response.headers['content-type'])).not.toContain('application/json');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-src 'self' https://www.youtube-nocookie.com");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-site');
  });

  it('keeps the headers that protect JSON answers and drops the document-only ones', async () => {
    for (const url of ['/healthz', '/api/public/announcements', '/api/nothing-here']) {
      const response = await app.inject({ method: 'GET', url });
      expect(String(response.headers['content-type'])).toContain('application/json');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-site');
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-frame-options']).toBeUndefined();
    }
  });

  it('allows cross-origin calls only from the allowlist', async () => {
    const foreign = await app.inject({
      method: 'GET',
      url: '/api/public/announcements',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const own = await app.inject({
      method: 'GET',
      url: '/api/public/announcements',
      headers: { origin: 'http://localhost:3000' },
    });
    expect(own.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(own.headers['access-control-expose-headers']).toBe('Retry-After, ETag');
    expect(own.headers.vary).toMatch(/\bOrigin\b/);
  });

  it('sends no CORS headers to a request that names no Origin, but still says the answer varies by it', async () => {
    for (const url of ['/api/public/announcements', '/healthz', '/api/mana?limit=5']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      const cors = Object.keys(response.headers).filter((name) => name.startsWith('access-control-'));
      expect(cors, url).toEqual([]);
      expect(response.headers.vary, url).toMatch(/\bOrigin\b/);
    }
  });
});

describe('configured frame and CORS origins', () => {
  it('come from configuration', async () => {
    const database = await openTestDatabase('pglite');
    const app = await buildApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        MAKER_FRAME_ORIGINS: 'https://maker.example.org',
        VIDEO_FRAME_ORIGINS: 'https://player.vimeo.com',
        CORS_ORIGINS: 'https://community.example.org',
        PUBLIC_ORIGIN: 'https://manaboard.example.org',
      }),
      database,
    });
    try {
      const response = await app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { origin: 'https://community.example.org' },
      });
      expect(response.headers['access-control-allow-origin']).toBe('https://community.example.org');
      // Over https, JSON answers keep HSTS.
      expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      const page = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(String(page.headers['content-security-policy'])).toContain(
        "frame-src 'self' https://player.vimeo.com https://maker.example.org",
      );
    } finally {
      await app.close();
      await database.close();
    }
  });
});
