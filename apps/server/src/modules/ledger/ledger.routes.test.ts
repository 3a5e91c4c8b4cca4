import { createHash } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerIndexResponseSchema } from '@manaboard/contract/ledger';
import { checkLedger } from '../../test/ledger-check';
import { insertLedgerWorld, type LedgerWorld } from '../../test/ledger-world';
import { buildTestApp, type TestApp } from '../../test/test-app';
import { testDatabaseKinds } from '../../test/test-database';
import { closeWeeks, STALE_BUILD_MS, type LedgerContext } from './ledger-close.service';
import { checkWeek, issueCorrection } from './ledger-correction.service';
import * as store from './ledger-store.repository';

const post = (hour: number, like: number, traced = 0.5) => ({
  hour,
  minute: 7,
  metrics: { like, quote: 1, reply: 2, repost: 1 },
  traced,
  status: 'live' as const,
  finalEarly: false,
  voidRecords: 1,
});

/** Three members of week 2026-W40: posts with records, a referral, interactions, a disqualified one. */
const world: LedgerWorld = {
  members: [
    {
      linked: true,
      linkedAtHour: 10,
      disqualified: false,
      posts: [post(3, 4), post(30, 6, 1), post(31, 2, 0)],
      referrals: [{ hour: 20, counts: true }],
      interactions: [{ hour: 60, kind: 'like' }],
    },
    {
      linked: false,
      linkedAtHour: 0,
      disqualified: false,
      posts: [post(5, 3)],
      referrals: [],
      interactions: [{ hour: 100, kind: 'repost' }],
    },
    {
      linked: true,
      linkedAtHour: 0,
      disqualified: true,
      posts: [post(6, 5)],
      referrals: [],
      interactions: [],
    },
  ],
  rulesV2Hour: 48,
  weightsV2: { like: 2, reply: 3, repost: 1, quote: 4 },
  referralRewardV2: 70,
  seed: 7,
};

const sha = (bytes: Buffer | string) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const afterHeader = (text: string) => text.slice(text.indexOf('\n') + 1);

describe.each(testDatabaseKinds())('the weekly ledger over HTTP (%s)', (kind) => {
  let h: TestApp;
  let context: LedgerContext & { network: 'x' };
  beforeAll(async () => {
    h = await buildTestApp(kind);
    context = { db: h.database.db, kind: h.database.kind, network: 'x' };
    await insertLedgerWorld(h.database.db, world);
    // Every post of the week is final: nothing in it can move any more.
    await h.database.db.updateTable('posts').set({ final: true }).execute();
  }, 60_000);
  afterAll(() => h.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    h.app.inject({ method: 'GET', url, headers });

  it('refuses a malformed week or edition with a 400 in the read routes dialect', async () => {
    for (const url of [
      '/api/ledger/2026-48',
      '/api/ledger/2026-W54',
      '/api/ledger/2026-W00',
      '/api/ledger/2025-W53',
      '/api/ledger/week',
      '/api/ledger/2026-W40/0',
      '/api/ledger/2026-W40/1.5',
      '/api/ledger/2026-W40/first',
      '/api/ledger/2026-W40/10001',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ success: false, error: expect.any(String) });
    }
  });

  it('answers 404 for a week without a ledger: before the first tracked post, in the future, or an edition not made', async () => {
    for (const url of ['/api/ledger/2026-W30', '/api/ledger/2027-W10', '/api/ledger/2026-W40/1']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual({ success: false, error: expect.any(String) });
    }
  });

  it('serves the open week as it stands, as canonical lines without a hash header', async () => {
    const response = await get('/api/ledger/2026-W40');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers['x-ledger-sha256']).toBeUndefined();
    const { header, members, end } = checkLedger(response.body);
    expect(header).toMatchObject({ state: 'open', closedAt: null, week: '2026-W40', network: 'x' });
    expect(members.size).toBe(2);
    expect(end.records).toBeGreaterThan(0);
    expect(end.notTraceable).toBeGreaterThan(0);
    expect(header.rules.map((r) => r.version)).toEqual([1, 2]);
    // Compressed as asked, the quickest the client takes first: zstd for a browser, else gzip before brotli.
    const zipped = await get('/api/ledger/2026-W40', { 'accept-encoding': 'br, gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(response.body);
    const browser = await get('/api/ledger/2026-W40', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(browser.headers['content-encoding']).toBe('zstd');
    expect(zstdDecompressSync(browser.rawPayload).toString('utf8')).toBe(response.body);
  });

  it('closes each week once nothing in it can move, storing exactly what the open route served, and serves it byte for byte', async () => {
    const open = (await get('/api/ledger/2026-W40')).body;
    const now = new Date();
    const first = await closeWeeks(context, now);
    expect(first.closed.map((c) => c.week)).toContain('2026-W40');
    // The current week and those still within the refresh and settle windows wait.
    expect(first.closed.map((c) => c.week)).not.toContain('2026-W48');
    expect((await closeWeeks(context, now)).closed).toEqual([]);

    const closed = await get('/api/ledger/2026-W40');
    expect(closed.statusCode).toBe(200);
    expect(closed.headers['x-ledger-edition']).toBe('1');
    expect(closed.headers['x-ledger-sha256']).toBe(sha(closed.rawPayload));
    expect(closed.headers['content-length']).toBe(String(closed.rawPayload.length));
    expect(afterHeader(closed.body)).toBe(afterHeader(open));
    expect(checkLedger(closed.body).header).toMatchObject({
      state: 'closed',
      edition: 1,
      closedAt: now.toISOString(),
    });

    const edition = await get('/api/ledger/2026-W40/1');
    expect(edition.body).toBe(closed.body);
    expect(edition.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = edition.headers.etag as string;
    expect((await get('/api/ledger/2026-W40/1', { 'if-none-match': etag })).statusCode).toBe(304);

    // Compressed as asked; the hash is of the uncompressed bytes.
    const gz = await get('/api/ledger/2026-W40/1', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(closed.body);
    // A browser takes gzip too: the stored gzip stream, as it is, rather than compressing it again.
    const browser = await get('/api/ledger/2026-W40/1', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(browser.headers['content-encoding']).toBe('gzip');
    expect(browser.headers['content-length']).toBe(String(browser.rawPayload.length));
    const br = await get('/api/ledger/2026-W40', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(closed.body);

    const index = ledgerIndexResponseSchema.parse((await get('/api/ledger')).json());
    const w40 = index.data.weeks.find((w) => w.week === '2026-W40');
    expect(w40).toMatchObject({
      state: 'closed',
      editions: [{ edition: 1, sha256: sha(closed.rawPayload), published: null }],
    });
    expect(w40?.editions[0]?.url).toMatch(/\/api\/ledger\/2026-W40\/1$/);
    expect(index.data.weeks[0]).toMatchObject({ state: 'open', editions: [] });
    expect(index.data.weeks.at(-1)?.week).toBe('2026-W40');
  });

  it('never changes a closed edition; a correction of changed figures is edition 2, audited, and a records-only change is none', async () => {
    const before = (await get('/api/ledger/2026-W40/1')).body;
    const db = h.database.db;
    // A record deleted after the week closed: the bytes differ, the figures do not.
    const record = await db
      .selectFrom('stream_records')
      .select('id')
      .where('state', '=', 'counted')
      .limit(1)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('stream_records')
      .set({ state: 'void', void_reason: 'deleted' })
      .where('id', '=', record.id)
      .execute();
    const recordsOnly = await checkWeek(context, '2026-W40');
    expect(recordsOnly).toMatchObject({ identical: false, figuresChanged: false, membersChanged: 0 });
    await expect(
      issueCorrection(context, '2026-W40', { actor: 'test', reason: 'nothing', now: new Date() }),
    ).rejects.toMatchObject({ status: 409 });

    // The operator disqualified a member after the week closed: the board of that week changed.
    const gone = [...checkLedger(before).members.keys()].at(-1) as string;
    await db.updateTable('authors').set({ disqualified: true }).where('id', '=', gone).execute();
    expect((await get('/api/ledger/2026-W40/1')).body).toBe(before);
    const check = await checkWeek(context, '2026-W40');
    expect(check).toMatchObject({ identical: false, figuresChanged: true, membersChanged: 1 });
    expect(check.members).toEqual([
      { author: gone, handle: expect.any(String), before: expect.any(Object), after: null },
    ]);

    const correction = await issueCorrection(context, '2026-W40', {
      actor: 'admin:@ops',
      reason: 'rescored a post',
      now: new Date(),
    });
    expect(correction.edition.edition).toBe(2);
    const newest = await get('/api/ledger/2026-W40');
    expect(newest.headers['x-ledger-edition']).toBe('2');
    const corrected = checkLedger(newest.body);
    expect(corrected.header).toMatchObject({ edition: 2, state: 'closed' });
    expect(corrected.members.has(gone)).toBe(false);
    expect((await get('/api/ledger/2026-W40/1')).body).toBe(before);
    expect((await get('/api/ledger/2026-W40/2')).body).toBe(newest.body);
    const audit = await db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'ledger.correction')
      .execute();
    expect(audit).toMatchObject([
      { actor: 'admin:@ops', subject: '2026-W40', details: { edition: 2, reason: 'rescored a post' } },
    ]);
    expect((await checkWeek(context, '2026-W40')).identical).toBe(true);
  });

  it('serves nothing of an edition a crash left half built, and drops it once it is stale', async () => {
    const db = h.database.db;
    const now = new Date();
    const key = { week: '2026-W47', edition: 1, token: 'crashed-build' };
    expect(
      await store.startEdition(db, {
        ...key,
        network: 'x',
        closedAt: now,
        createdBy: 'worker',
        reason: null,
        now,
      }),
    ).toBe(true);
    await store.appendChunk(db, { ...key, seq: 0, data: new Uint8Array([1, 2, 3]), rawLength: 3, now });
    expect((await get('/api/ledger/2026-W47/1')).statusCode).toBe(404);
    const open = await get('/api/ledger/2026-W47');
    expect(open.statusCode).toBe(200);
    expect(checkLedger(open.body).header.state).toBe('open');
    await closeWeeks(context, new Date(now.getTime() + STALE_BUILD_MS + 1));
    expect(await db.selectFrom('ledgers').selectAll().where('week', '=', '2026-W47').execute()).toEqual([]);
    expect(await db.selectFrom('ledger_chunks').selectAll().where('week', '=', '2026-W47').execute()).toEqual(
      [],
    );
  });
});

describe('an open week read by a client that stops reading', () => {
  let h: TestApp;
  beforeAll(async () => {
    h = await buildTestApp('pglite', { LEDGER_SEND_WAIT_SECONDS: '2' });
    await insertLedgerWorld(h.database.db, world);
    // 60,000 likes on one post: a ledger of about 14 MB, more than a socket's buffers hold for a client that
    // reads nothing, so its build waits on the client.
    const busy = await h.database.db
      .selectFrom('posts')
      .select('id')
      .where('status', '=', 'live')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await sql`
      insert into stream_records (id, kind, subject_id, author_id, created_at, cid, state)
      select 'at://did:plc:' || lpad(g::text, 24, 'a') || '/app.bsky.feed.like/3' || lpad(g::text, 12, '2'),
        'like', ${busy.id}, 'did:plc:' || lpad(g::text, 24, 'a'), ${new Date('2026-10-01T10:00:00.000Z')},
        'bafyrei' || lpad(g::text, 52, 'b'), 'counted'
      from generate_series(1, 60000) g
    `.execute(h.database.db);
    await h.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(() => h.close());

  it('is cut off once it has kept the build waiting for LEDGER_SEND_WAIT_SECONDS, and its build slot is freed', async () => {
    const { port } = h.app.server.address() as net.AddressInfo;
    const stalled = await Promise.all(
      [0, 1].map(
        () =>
          new Promise<{ socket: net.Socket; closed: Promise<void>; text: () => string }>((resolve) => {
            const socket = net.connect(port, '127.0.0.1');
            const chunks: Buffer[] = [];
            socket.on('data', (chunk: Buffer) => chunks.push(chunk));
            socket.on('error', () => undefined);
            const closed = new Promise<void>((done) => socket.once('close', () => done()));
            socket.once('connect', () => {
              socket.write('GET /api/ledger/2026-W40 HTTP/1.1\r\nHost: board\r\n\r\n');
            });
            // The client reads the first bytes (its build has its slot), then stops reading.
            socket.once('data', () => {
              socket.pause();
              resolve({ socket, closed, text: () => Buffer.concat(chunks).toString('utf8') });
            });
          }),
      ),
    );
    // Each build waits on its client; once it has waited 2 s in all, the server cuts the answer off. (Without the
    // budget this waits for good: both builds hold their slots while their clients read nothing.)
    const cutOff = () =>
      h.logs.filter((l) => l.includes('ledger: the client took the open week too slowly; cut off')).length;
    for (const started = Date.now(); cutOff() < 2; await sleep(100))
      if (Date.now() - started > 60_000)
        throw new Error(`${cutOff()} of the 2 stalled answers cut off in 60 s`);
    for (const s of stalled) {
      // What the client had not read yet arrives, then the end of a connection the server closed.
      s.socket.resume();
      await s.closed;
    }
    for (const s of stalled) expect(s.text()).not.toContain('"type":"end"');
    // Their slots are free again: the open week is served in full.
    const served = await h.app.inject({ method: 'GET', url: '/api/ledger/2026-W40' });
    expect(served.statusCode).toBe(200);
    expect(served.body.trimEnd().split('\n').at(-1)).toContain('"type":"end"');
  }, 120_000);
});
