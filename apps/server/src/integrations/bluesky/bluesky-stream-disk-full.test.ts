import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { DatabaseHandle } from '../../db/database';
import { readState, saveCursor } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-events';
import { readRulesFile, saveRules } from '../../modules/programme/programme.service';
import { openTestDatabase } from '../../test/test-database';
import { commitFrame, post } from './bluesky-frames.test-support';
import { relayStreamJob } from '../../test/relay-stream-job';

const BOB = 'did:plc:bob';

// Issue 32 (bench/faults.ts disk-full): a write that met a full disk could hang PGlite for good (the app at 84 %
// CPU, deaf to SIGTERM, after the space returned). Writes now stop at a reserve of free space
// (db/pglite-disk-guard.ts): the stream must say why it stopped, and go on by itself when space returns. The
// database is a real PGlite; the disk's free space is the test's.
describe('the stream job on a full disk', () => {
  let free = 0;
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase('pglite', { diskGuard: { freeBytes: () => free } });
    free = 2 ** 40;
    await saveRules(database.db, { ...(await readRulesFile()), officialHandles: ['manahq.test'] }, 'test');
  }, 120_000);
  afterAll(async () => {
    await database?.close();
  });

  it('refuses to store with a clear error while the disk is full, and stores by itself once space returns', async () => {
    const asked: string[] = [];
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    const tagged = await post('full disk take #ManaBoard');
    const postFrame = await commitFrame(51, BOB, [
      { action: 'create', path: 'app.bsky.feed.post/d1', block: tagged },
    ]);
    server.on('connection', (socket, request) => {
      asked.push(request.url ?? '');
      socket.send(postFrame);
    });
    await saveCursor(database.db, STREAM_JOB, { seq: 50 }, new Date());
    const lines: Array<{ msg?: string; err?: { message?: string } }> = [];
    const log = pino(
      { level: 'error' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
          done();
        },
      }),
    );
    const job = relayStreamJob(database, `ws://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      log,
      flushMs: 50,
      maxBackoffMs: 200,
    });
    free = 0;
    try {
      await job.start();
      // Full: the post's batch is refused, the stream retries from the stored cursor.
      await expect.poll(() => asked.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
      const refused = lines.filter((l) => l.msg?.startsWith('stream: batch not read or not stored'));
      expect(refused.length).toBeGreaterThanOrEqual(2);
      expect(refused[0]?.err?.message).toMatch(
        /has 0\.00 MB free, under the 64 MB the embedded database keeps free/,
      );
      expect(await database.db.selectFrom('posts').select('id').execute()).toEqual([]);
      // Space returns: the stream stores by itself.
      free = 2 ** 40;
      await job.storedUntil((cursor) => cursor.seq === 51);
    } finally {
      await job.stop();
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(asked.every((url) => url === '/xrpc/com.atproto.sync.subscribeRepos?cursor=50')).toBe(true);
    const rows = await database.db.selectFrom('posts').select('id').execute();
    expect(rows.map((r) => r.id)).toEqual([`at://${BOB}/app.bsky.feed.post/d1`]);
    expect((await readState(database.db, STREAM_JOB))?.cursor).toMatchObject({ seq: 51 });
  }, 60_000);
});
