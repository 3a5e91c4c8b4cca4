import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingResponseSchema, publicConfigResponseSchema } from '@manaboard/contract';
import { buildTestApp } from '../../test/test-app';
import { loadBranding } from './branding';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-branding-'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const shipped = path.resolve(import.meta.dirname, '../../../content/branding.json');

async function writeBranding(name: string, value: unknown): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

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

describe('GET /api/public/branding', () => {
  it('serves the shipped Manaboard branding by default', async () => {
    const t = await buildTestApp('pglite');
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/public/branding' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=300');
      const { data } = brandingResponseSchema.parse(response.json());
      expect(data.programmeName).toBe('Manaboard');
      expect(data.howToEarn.map((page) => page.title)).toEqual([
        'What is the programme',
        'Getting Started',
        'Earning Mana',
        'Interaction Rewards',
        'Rules',
      ]);
      expect(data.faq).toHaveLength(3);
      expect(data.links.maker).toBeNull();
      expect(data.video?.youtubeId).toMatch(/^[\w-]+$/);
    } finally {
      await t.close();
    }
  });

  it('serves the file BRANDING_FILE names, defaults filled in', async () => {
    const source = JSON.parse(await fs.readFile(shipped, 'utf8')) as Record<string, unknown>;
    const file = await writeBranding('acme.json', {
      programmeName: 'Acme Quest',
      supportEmail: 'help@acme.test',
      links: { maker: 'https://maker.acme.test/' },
      video: null,
      faq: source.faq,
      howToEarn: source.howToEarn,
    });
    const t = await buildTestApp('pglite', { BRANDING_FILE: file });
    try {
      const { data } = brandingResponseSchema.parse(
        (await t.app.inject({ method: 'GET', url: '/api/public/branding' })).json(),
      );
      expect(data.programmeName).toBe('Acme Quest');
      expect(data.supportEmail).toBe('help@acme.test');
      expect(data.links.maker).toBe('https://maker.acme.test/');
      expect(data.links.chat).toBe('https://chat.manaboard.example');
      expect(data.video).toBeNull();
      expect(data.daoName).toBe('Manaboard DAO');
    } finally {
      await t.close();
    }
  });
});

describe('loadBranding', () => {
  it('names every invalid field', async () => {
    const file = await writeBranding('bad.json', {
      supportEmail: 'not-an-email',
      links: { chat: 'javascript:alert(1)' },
      faq: [],
      howToEarn: [],
    });
    const error = (await loadBranding(file).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('supportEmail');
    expect(error.message).toContain('links.chat');
    expect(error.message).toContain('faq: the FAQ has exactly 3 pages');
    expect(error.message).toContain('howToEarn');
  });

  it('says when the file is missing or not JSON', async () => {
    await expect(loadBranding(path.join(dir, 'missing.json'))).rejects.toThrow(
      /Cannot read the branding file/,
    );
    await expect(loadBranding(await writeBranding('broken.json', '{'))).rejects.toThrow(/is not JSON/);
  });
});
