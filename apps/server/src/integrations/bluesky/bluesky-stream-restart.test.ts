import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import type { StreamProgressReport } from '../../jobs/stream-progress-report';
import { readState, saveCursor } from '../../modules/mana/ingest-state.repository';
import { STREAM_JOB } from '../../modules/mana/stream-events';
import { readRulesFile, saveRules } from '../../modules/programme/programme.service';
import type { SkipReason } from '../../social/stream-source';
import { openTestDatabase, testDatabaseKinds } from '../../test/test-database';
import type { DatabaseHandle } from '../../db/database';
import { commitFrame, like, post } from './bluesky-frames.test-support';
import { relayStreamJob } from '../../test/relay-stream-job';

const ALICE = 'did:plc:alice';
const CAROL = 'did:plc:carol';
const P = `at://${ALICE}/app.bsky.feed.post/p1`;
const P2 = `at://${ALICE}/app.bsky.feed.post/p2`;

/** A relay that keeps its frames: each connection gets those after its cursor, then each one added. */
async function keepingRelay() {
  const frames: Array<{ seq: number; bytes: Uint8Array }> = [];
  const asked: string[] = [];
  const open = new Set<WebSocket>();
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  server.on('connection', (socket, request) => {
    asked.push(request.url ?? '');
    const cursor = Number(new URL(request.url ?? '', 'ws://relay').searchParams.get('cursor') ?? -1);
    for (const f of frames) if (f.seq > cursor) socket.send(f.bytes);
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    add(seq: number, bytes: Uint8Array) {
      frames.push({ seq, bytes });
      for (const socket of open) socket.send(bytes);
    },
    async close() {
      for (const client of server.clients) client.terminate();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

type Seen = {
  logs: Array<Record<string, unknown>>;
  skips: SkipReason[];
  refilled: number[];
  reports: StreamProgressReport[];
};
const nothingSeen = (): Seen => ({ logs: [], skips: [], refilled: [], reports: [] });

/** A stream job as a process starts it: nothing in memory but what it reads from the database. */
function startedJob(database: DatabaseHandle, relayUrl: string, thread: 'worker' | 'inline', seen: Seen) {
  const log = pino(
    { level: 'info' },
    { write: (line: string) => void seen.logs.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return relayStreamJob(database, relayUrl, {
    log,
    thread,
    onSkip: (reason) => seen.skips.push(reason),
    onRefill: (frames) => seen.refilled.push(frames),
    onProgress: (report) => seen.reports.push(report),
  });
}

/**
 * Issue 32, the worker SIGKILLed in the middle of a batch (bench/faults.ts `kill`): a like that came before its post
 * waits in memory while the stored cursor moves past it; the process dies; its post comes after the restart.
 */
// Also on the database's own thread, as the server runs it on Bluesky (PGLITE_THREAD).
describe.each([...testDatabaseKinds(), 'pglite-thread' as const])(
  'a like waiting for its post when the process dies (%s)',
  (kind) => {
    it.each(['worker', 'inline'] as const)(
      'is counted once its post comes after the restart (stream read %s)',
      async (thread) => {
        const database = await openTestDatabase(kind);
        const relay = await keepingRelay();
        try {
          await saveRules(
            database.db,
            { ...(await readRulesFile()), officialHandles: ['manahq.test'] },
            'test',
          );
          const start = Date.now() - 60_000;
          const time = (seq: number) => new Date(start + (seq - 100) * 1_000).toISOString();
          const frame = async (
            seq: number,
            repo: string,
            path: string,
            block: Awaited<ReturnType<typeof like>>,
          ) =>
            relay.add(seq, await commitFrame(seq, repo, [{ action: 'create', path, block }], [], time(seq)));
          // 101: a like of P, which has not come yet (it waits); 102–103: a like of P2, then P2 (which releases it).
          await frame(101, CAROL, 'app.bsky.feed.like/l1', await like(P, time(101)));
          await frame(102, CAROL, 'app.bsky.feed.like/l2', await like(P2, time(102)));
          await frame(
            103,
            ALICE,
            'app.bsky.feed.post/p2',
            await post('take two #ManaBoard', { createdAt: time(103) }),
          );
          await saveCursor(database.db, STREAM_JOB, { seq: 100 }, new Date());

          const died = startedJob(database, relay.url, thread, nothingSeen());
          await died.start();
          await died.storedUntil((cursor) => cursor.seq === 103);
          // The stored cursor is past the waiting like; beside it, where that like was read.
          const before = await readState(database.db, STREAM_JOB);
          expect(before?.cursor).toEqual({ seq: 103, time: time(103) });
          expect(before?.waiting_cursor).toEqual({ seq: 101, time: time(101) });
          // The process dies: nothing it held in memory survives (stopping writes nothing to the database; a new
          // job starts with an empty waiting room, as a new process does).
          await died.stop();

          await frame(
            104,
            ALICE,
            'app.bsky.feed.post/p1',
            await post('take one #ManaBoard', { createdAt: time(104) }),
          );
          const second = nothingSeen();
          const restarted = startedJob(database, relay.url, thread, second);
          await restarted.start();
          try {
            await restarted.storedUntil((cursor) => cursor.seq === 104);
          } finally {
            await restarted.stop();
          }

          // Counted once each: the like that waited through the restart too (before the fix it was lost).
          const likes = await database.db
            .selectFrom('stream_records')
            .select(['subject_id', 'author_id'])
            .where('kind', '=', 'like')
            .orderBy('subject_id')
            .execute();
          expect(likes).toEqual([
            { subject_id: P, author_id: CAROL },
            { subject_id: P2, author_id: CAROL },
          ]);
          const posts = await database.db.selectFrom('posts').select(['id', 'likes']).orderBy('id').execute();
          expect(posts).toEqual([
            { id: P, likes: 1 },
            { id: P2, likes: 1 },
          ]);
          // The restart read again from the waiting like (refilling the waiting room only), then on.
          expect(relay.asked).toEqual([
            '/xrpc/com.atproto.sync.subscribeRepos?cursor=100',
            '/xrpc/com.atproto.sync.subscribeRepos?cursor=100',
          ]);
          expect(second.logs.find((l) => l.kind === 'refilled')).toMatchObject({
            asked: 100,
            through: 103,
            frames: 3,
            first: 101,
            waiting: 1,
          });
          expect(second.refilled).toEqual([3]);
          // Nothing read again was stored, counted as skipped, or moved the cursor back.
          expect(second.skips).toEqual([]);
          expect(second.reports.map((r) => r.cursorTime?.toISOString())).toEqual([time(104)]);
          expect(second.reports.reduce((n, r) => n + r.stored, 0)).toBe(2);
          const after = await readState(database.db, STREAM_JOB);
          expect(after?.cursor).toEqual({ seq: 104, time: time(104) });
          expect(after?.waiting_cursor).toBeNull();
        } finally {
          await relay.close();
          await database.close();
        }
      },
      60_000,
    );
  },
);
