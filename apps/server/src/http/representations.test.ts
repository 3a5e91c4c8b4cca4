import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { World } from '@manaboard/x-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manaResponseSchema } from '@manaboard/contract';
import { buildTestApp, type TestApp } from '../test/test-app';
import { testDatabaseKinds } from '../test/test-database';
import { bumpTotalsStamp } from '../modules/mana/totals.repository';
import { seedDemoIfEmpty } from '../modules/announcements/demo-seed';
import { negotiateEncoding, wireBody, WRITEV_FROM_BYTES } from './representations';

const BROWSER = 'gzip, deflate, br, zstd';

describe('negotiateEncoding', () => {
  it('prefers br, then gzip, and honours q=0 and *', () => {
    expect(negotiateEncoding(BROWSER)).toBe('br');
    expect(negotiateEncoding('gzip, deflate')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('BR')).toBe('br');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('deflate, gzip;q=0')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding('')).toBeNull();
  });
});

/** `count` authors with all-time rows, written as the totals job would leave them, and the stamp bumped. */
async function addRankedAuthors(t: TestApp, from: number, count: number) {
  const at = new Date('2026-11-02T10:00:00Z');
  for (let i = from; i < from + count; i++) {
    const id = String(9000 + i);
    await t.database.db
      .insertInto('authors')
      .values({
        id,
        handle: `author_${id}`,
        display_name: `Author ${id}`,
        first_tracked_at: at,
        updated_at: at,
      })
      .execute();
    await t.database.db
      .insertInto('mana_totals')
      .values({
        period: 'all',
        author_id: id,
        mana: 1000 - i,
        posts: 1,
        likes: 1,
        replies: 0,
        reposts: 0,
        quotes: 0,
        first_tracked_at: at,
        rank: i + 1,
      })
      .execute();
    await t.database.db
      .insertInto('posts')
      .values({
        id: String(7000 + i),
        author_id: id,
        text: `Post ${i} about #ManaBoard`,
        created_at: at,
        kind: 'original',
        likes: 1,
        replies: 0,
        reposts: 0,
        quotes: 0,
        first_seen_at: at,
        refreshed_at: at,
      })
      .execute();
  }
  await bumpTotalsStamp(t.database.db, new Date());
}

function decoded(response: { headers: Record<string, unknown>; rawPayload: Buffer }): unknown {
  const encoding = response.headers['content-encoding'];
  const bytes =
    encoding === 'br'
      ? brotliDecompressSync(response.rawPayload)
      : encoding === 'gzip'
        ? gunzipSync(response.rawPayload)
        : response.rawPayload;
  return JSON.parse(bytes.toString('utf8'));
}

describe.each(testDatabaseKinds())('stored answers in each encoding (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind, { LOG_LEVEL: 'silent' }, { world: new World(Date.now()) });
    await addRankedAuthors(t, 0, 30);
    // The demo announcements: an answer worth compressing.
    expect(await seedDemoIfEmpty(t.database.db)).toBeGreaterThan(0);
  });
  afterAll(() => t.close());

  const read = (url: string, acceptEncoding?: string, ifNoneMatch?: string) =>
    t.app.inject({
      url,
      headers: {
        ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        ...(ifNoneMatch ? { 'if-none-match': ifNoneMatch } : {}),
      },
    });

  it.each(['/api/mana?limit=30', '/api/posts?limit=20', '/api/public/announcements?page=1&limit=50'])(
    '%s: br and gzip bytes decode to the plain JSON, each with its own ETag and Vary',
    async (url) => {
      const plain = await read(url);
      const br = await read(url, BROWSER);
      const gzip = await read(url, 'gzip, deflate');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThanOrEqual(1024);
      expect(br.headers['content-encoding']).toBe('br');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decoded(br)).toEqual(plain.json());
      expect(decoded(gzip)).toEqual(plain.json());
      for (const response of [plain, br, gzip]) {
        expect(String(response.headers.vary).split(', ')).toEqual(['Origin', 'Accept-Encoding']);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        // The compressed forms are written past Fastify's onSend hooks: they carry the JSON security headers too.
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['cross-origin-resource-policy']).toBe('same-site');
        expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
      }
      const tags = [plain, br, gzip].map((r) => String(r.headers.etag));
      expect(new Set(tags).size).toBe(3);
      // The second read in the same encoding sends the same stored bytes.
      const brAgain = await read(url, BROWSER);
      expect(brAgain.rawPayload.equals(br.rawPayload)).toBe(true);
      expect(brAgain.headers.etag).toBe(br.headers.etag);
    },
  );

  it('writes plain JSON of any characters with its length in bytes, and a HEAD of it without the body', async () => {
    // Written past Fastify's send as well: Content-Length is the UTF-8 length, not the string's. (A query no
    // earlier test read, so the answer is built after the rename.)
    await t.database.db
      .updateTable('authors')
      .set({ display_name: 'Zoë — “Mana” ✨' })
      .where('id', '=', '9000')
      .execute();
    const plain = await read('/api/mana?limit=29');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toContain('Zoë — “Mana” ✨');
    expect(Number(plain.headers['content-length'])).toBe(Buffer.byteLength(plain.body, 'utf8'));
    expect(Number(plain.headers['content-length'])).toBeGreaterThan(plain.body.length);
    const head = await t.app.inject({ method: 'HEAD', url: '/api/mana?limit=29' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(plain.headers['content-length']);
    expect(head.headers.etag).toBe(plain.headers.etag);
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers a HEAD in an encoding with its headers and no body', async () => {
    const get = await read('/api/mana?limit=30', BROWSER);
    const head = await t.app.inject({
      method: 'HEAD',
      url: '/api/mana?limit=30',
      headers: { 'accept-encoding': BROWSER },
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });

  it('answers 304 only to the ETag of the representation it would send', async () => {
    const url = '/api/mana?limit=30';
    const plain = await read(url);
    const br = await read(url, BROWSER);
    const gzip = await read(url, 'gzip');
    const brTag = String(br.headers.etag);
    const notModified = await read(url, BROWSER, brTag);
    expect(notModified.statusCode).toBe(304);
    expect(notModified.body).toBe('');
    expect(notModified.headers.etag).toBe(brTag);
    expect(String(notModified.headers.vary)).toContain('Accept-Encoding');
    expect((await read(url, 'gzip', String(gzip.headers.etag))).statusCode).toBe(304);
    expect((await read(url, undefined, String(plain.headers.etag))).statusCode).toBe(304);
    expect((await read(url, 'gzip', `W/${String(gzip.headers.etag)}`)).statusCode).toBe(304);
    // Another representation's tag is not this one: the full answer comes back.
    const mismatch = await read(url, BROWSER, String(plain.headers.etag));
    expect(mismatch.statusCode).toBe(200);
    expect(decoded(mismatch)).toEqual(plain.json());
  });

  it('leaves small answers uncompressed', async () => {
    const small = await read('/api/mana?limit=1', BROWSER);
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    // The same bytes whatever Accept-Encoding says: no Vary on it, still an ETag to revalidate with.
    expect(String(small.headers.vary ?? '')).not.toContain('Accept-Encoding');
    const plain = await read('/api/mana?limit=1');
    expect(plain.rawPayload.equals(small.rawPayload)).toBe(true);
    expect(small.headers.etag).toBe(plain.headers.etag);
    expect((await read('/api/mana?limit=1', BROWSER, String(small.headers.etag))).statusCode).toBe(304);
  });

  it('gives an answer nobody may store no ETag, and answers it in full even to an If-None-Match', async () => {
    const health = await read('/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.headers['cache-control']).toBe('no-store');
    expect(health.headers.etag).toBeUndefined();
    expect(String(health.headers.vary ?? '')).not.toContain('Accept-Encoding');
    expect(health.json()).toEqual({ status: 'ok' });
    const asked = await read('/healthz', undefined, '*');
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ status: 'ok' });
  });

  it('drops the stored forms when the totals change', async () => {
    const url = '/api/mana?limit=40';
    const before = await read(url, BROWSER);
    const total = manaResponseSchema.parse(decoded(before)).data.total;
    await addRankedAuthors(t, 30, 2);
    // The cache asks for the totals stamp at most once a second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = await read(url, BROWSER, String(before.headers.etag));
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-encoding']).toBe('br');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(manaResponseSchema.parse(decoded(after)).data.total).toBe(total + 2);
    const plain = await read(url);
    expect(decoded(after)).toEqual(plain.json());
  });
});

describe('wireBody', () => {
  it('hands a body under WRITEV_FROM_BYTES to Node as a latin1 string of its bytes, and a larger one as the bytes', () => {
    const small = Buffer.from('{"name":"Zoë ✨"}', 'utf8');
    const kept = wireBody(small);
    expect(typeof kept).toBe('string');
    expect(Buffer.from(kept as string, 'latin1').equals(small)).toBe(true);
    expect(kept.length).toBe(small.length);
    expect(wireBody(Buffer.alloc(WRITEV_FROM_BYTES - 1, 0x61))).toBe('a'.repeat(WRITEV_FROM_BYTES - 1));
    const large = Buffer.alloc(WRITEV_FROM_BYTES, 0xe2);
    expect(wireBody(large)).toBe(large);
  });
});

describe.each(testDatabaseKinds())('a stored answer of WRITEV_FROM_BYTES or more (%s)', (kind) => {
  let t: TestApp;
  let port: number;
  const url = '/api/mana?limit=60';
  beforeAll(async () => {
    t = await buildTestApp(kind, { LOG_LEVEL: 'silent' }, { world: new World(Date.now()) });
    await addRankedAuthors(t, 0, 60);
    await t.database.db
      .updateTable('authors')
      .set({ display_name: 'Zoë — “Mana” ✨' })
      .where('id', '=', '9003')
      .execute();
    await bumpTotalsStamp(t.database.db, new Date());
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  it('is written as its bytes, with their length, in full or compressed, and without them for a HEAD', async () => {
    const plain = await t.app.inject({ url });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThanOrEqual(WRITEV_FROM_BYTES);
    expect(plain.body).toContain('Zoë — “Mana” ✨');
    expect(plain.rawPayload.equals(Buffer.from(JSON.stringify(plain.json()), 'utf8'))).toBe(true);
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(manaResponseSchema.parse(plain.json()).data.authors).toHaveLength(60);
    const br = await t.app.inject({ url, headers: { 'accept-encoding': BROWSER } });
    expect(decoded(br)).toEqual(plain.json());
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.headers['content-length']).toBe(plain.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
    // Under the size, the same name is kept as a latin1 string of its bytes, and compressed from those bytes.
    const small = await t.app.inject({ url: '/api/mana?limit=10' });
    expect(small.rawPayload.length).toBeLessThan(WRITEV_FROM_BYTES);
    expect(small.body).toContain('Zoë — “Mana” ✨');
    expect(Number(small.headers['content-length'])).toBe(small.rawPayload.length);
    const smallBr = await t.app.inject({
      url: '/api/mana?limit=10',
      headers: { 'accept-encoding': BROWSER },
    });
    expect(smallBr.headers['content-encoding']).toBe('br');
    expect(decoded(smallBr)).toEqual(small.json());
  });

  it('is answered again before the router with the same bytes, over a real socket', async () => {
    // fetch asks for br by default: this read is of the plain bytes.
    const plainRead = () =>
      fetch(`http://127.0.0.1:${port}${url}`, { headers: { 'accept-encoding': 'identity' } });
    const first = await plainRead();
    const firstBytes = Buffer.from(await first.arrayBuffer());
    expect(firstBytes.length).toBeGreaterThanOrEqual(WRITEV_FROM_BYTES);
    // The board's cache checks the totals at most once a second: a pair may straddle that check (stored-reads.test).
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const before = t.app.storedReads?.answered ?? -1;
      const again = await plainRead();
      const bytes = Buffer.from(await again.arrayBuffer());
      expect(again.headers.get('content-length')).toBe(String(firstBytes.length));
      expect(bytes.equals(firstBytes)).toBe(true);
      if (t.app.storedReads?.answered === before + 1) return;
    }
    throw new Error(`${url} was never answered before the router`);
  });
});
