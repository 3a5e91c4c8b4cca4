import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/test-app';
import { writeMinimalWebDist } from '../test/web-dist';

describe('serving the built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await writeMinimalWebDist();
    t = await buildTestApp('pglite', { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it.each(['/', '/r/@someone', '/r/someone', '/auth/callback?code=1', '/linked'])(
    'answers index.html, never cached, for %s',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<div id="root">');
    },
  );

  it("preloads the first screen's data on the main page only", async () => {
    const page = async (url: string) =>
      (await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })).body;
    for (const url of ['/', '/r/someone']) {
      expect(await page(url)).toContain('<link rel="preload" href="/api/public/branding" as="fetch"');
      expect(await page(url)).toContain('<link rel="preload" href="/api/mana?limit=20" as="fetch"');
    }
    for (const url of ['/auth/callback?code=1', '/linked', '/no/such/page']) {
      const html = await page(url);
      expect(html).not.toContain('as="fetch"');
      expect(html).toContain('<link rel="icon" type="image/svg+xml" href="/favicon.svg" />');
      expect(html).toContain('<div id="root">');
    }
  });

  it('caches hashed assets for a year, immutable, and compresses them', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.rawPayload.length).toBeLessThan(1000);
  });

  it('caches other public files for an hour', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers unknown pages with the app and a 404 status, unknown files with JSON', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/no/such/page',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<div id="root">');
    const file = await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(file.statusCode).toBe(404);
    expect(file.json()).toEqual({ success: false, error: 'Route GET /assets/missing.js not found' });
  });

  it('does not serve files outside the build', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/../../package.json' });
    expect(response.statusCode).toBe(404);
    const dotted = await t.app.inject({ method: 'GET', url: '/assets/%2e%2e/%2e%2e/package.json' });
    expect([400, 403, 404]).toContain(dotted.statusCode);
  });
});

describe('a build switched in under a running server', () => {
  it('serves the new index.html within seconds, and the last good one while none is there', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-switch-'));
    const first = await writeMinimalWebDist();
    const second = await writeMinimalWebDist();
    await fs.writeFile(
      path.join(second, 'index.html'),
      '<!doctype html><title>v2</title><div id="root"></div>',
    );
    const link = path.join(root, 'dist');
    await fs.symlink(first, link);
    const t = await buildTestApp('pglite', { WEB_DIST_DIR: link });
    const page = () => t.app.inject({ method: 'GET', url: '/linked', headers: { accept: 'text/html' } });
    try {
      expect((await page()).body).toContain('<title>Manaboard</title>');
      // A rebuild in place that has removed index.html: the copy in memory is still served.
      await fs.rename(path.join(first, 'index.html'), path.join(first, 'index.old'));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await page()).statusCode).toBe(200);
      expect((await page()).body).toContain('<title>Manaboard</title>');
      // The link switched atomically, as scripts/build-lib.mjs does.
      await fs.symlink(second, `${link}.next`);
      await fs.rename(`${link}.next`, link);
      const deadline = Date.now() + 5000;
      while (!(await page()).body.includes('<title>v2</title>') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await page()).body).toContain('<title>v2</title>');
    } finally {
      await t.close();
      for (const dir of [root, first, second]) await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('without a built web app', () => {
  it('says how to build it instead of failing', async () => {
    const t = await buildTestApp('pglite', { WEB_DIST_DIR: path.join(os.tmpdir(), 'mb-no-such-dist') });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build');
      const api = await t.app.inject({ method: 'GET', url: '/api/public/announcements' });
      expect(api.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
