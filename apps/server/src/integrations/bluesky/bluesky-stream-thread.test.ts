import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { encode, toBytes } from '@atcute/cbor';
import * as CID from '@atcute/cid';
import { Secp256k1PrivateKeyExportable } from '@atcute/crypto';
import { programmeRulesSchema } from '@manaboard/contract';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { programmeNamer } from '../../modules/mana/stream-events';
import { PROGRAMME_FILE } from '../../modules/programme/programme.service';
import { StreamInterest } from '../../social/stream-interest';
import type { SkipReason, StreamBatch } from '../../social/stream-source';
import { BlueskyFirehose } from './bluesky-firehose';
import { STREAM_THREAD_NICE } from './bluesky-stream-thread';
import { createFrameReader } from './bluesky-frames';
import { block, car, commitFrame, frame, like, post } from './bluesky-frames.test-support';

// The stream read in its worker thread (the default, issue 31): what it keeps, its backpressure, its ends.

const rules = programmeRulesSchema.parse(JSON.parse(fs.readFileSync(PROGRAMME_FILE, 'utf8')));
const BOB = 'did:plc:bob';
const TRACKED = 'at://did:plc:ann/app.bsky.feed.post/tracked';

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function relay(onConnection: (socket: WebSocket) => void) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  server.on('connection', (socket) => onConnection(socket));
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function source(relayUrl: string, skipped: SkipReason[], extra: object = {}) {
  return new BlueskyFirehose({
    relayUrl,
    log: pino({ level: 'silent' }),
    reader: createFrameReader(),
    batchSize: 1,
    flushMs: 50,
    gapNote: 'test',
    onSkip: (reason) => skipped.push(reason),
    ...extra,
  });
}

function interest(): StreamInterest {
  const i = new StreamInterest();
  i.load({ tracked: [TRACKED], people: [], officials: [], names: programmeNamer(rules, new Set()) });
  return i;
}

const likeFrame = async (seq: number, subject: string) =>
  commitFrame(seq, BOB, [
    { action: 'create', path: `app.bsky.feed.like/l${seq}`, block: await like(subject) },
  ]);

describe('the Bluesky stream read in a worker thread', () => {
  it('keeps what the interest keeps: a post that names the programme, then its likes; nothing that concerns nobody', async () => {
    const named = `at://${BOB}/app.bsky.feed.post/named`;
    const frames = [
      await likeFrame(1, 'at://did:plc:x/app.bsky.feed.post/other'),
      await likeFrame(2, TRACKED),
      await commitFrame(3, BOB, [
        { action: 'create', path: 'app.bsky.feed.post/named', block: await post('all about #ManaBoard') },
      ]),
      await likeFrame(4, named),
      frame({ op: 1, t: '#new-kind' }, { seq: 5 }),
    ];
    const url = await relay((socket) => {
      for (const f of frames) socket.send(f);
    });
    const skipped: SkipReason[] = [];
    const abort = new AbortController();
    const mine = interest();
    const batches: StreamBatch[] = [];
    for await (const batch of source(url, skipped).read(null, mine, abort.signal)) {
      batches.push(batch);
      if (batch.cursor.seq === 5) abort.abort();
    }
    const events = batches.flatMap((b) => b.events);
    expect(events.map((e) => (e.type === 'identity' ? '' : e.id))).toEqual([
      `at://${BOB}/app.bsky.feed.like/l2`,
      named,
      `at://${BOB}/app.bsky.feed.like/l4`,
    ]);
    expect(events[1]?.type === 'post' && events[1].createdAt).toBeInstanceOf(Date);
    expect(skipped).toEqual(['unknown-frame']);
    // The post was tracked by the thread's copy of the interest, not by this one: the frames were read there.
    expect(mine.size.tracked).toBe(1);
  }, 30_000);

  it.runIf(process.platform === 'linux')(
    'reads at a lower CPU priority than the thread that serves (STREAM_THREAD_NICE), which keeps its own',
    async () => {
      // Each thread of this process with its nice value (/proc/self/task/<tid>/stat, field 19).
      const nices = () =>
        fs.readdirSync('/proc/self/task').flatMap((tid) => {
          try {
            const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
            return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
          } catch {
            return []; // a thread that ended since the listing
          }
        });
      const lowered = () => nices().filter((nice) => nice >= STREAM_THREAD_NICE).length;
      const before = lowered();
      const own = os.getPriority();
      const url = await relay((socket) => socket.send(frame({ op: 1, t: '#new-kind' }, { seq: 1 })));
      const abort = new AbortController();
      const reading = source(url, [], { flushMs: 10 }).read(null, interest(), abort.signal);
      await reading.next();
      expect(lowered()).toBe(before + 1);
      expect(os.getPriority()).toBe(own);
      abort.abort();
      expect((await reading.next()).done).toBe(true);
    },
    30_000,
  );

  it('stops reading while the batches handed on are not stored, and reads on as each is', async () => {
    const frames = [await likeFrame(1, TRACKED), await likeFrame(2, TRACKED)];
    for (let seq = 3; seq < 503; seq++) frames.push(frame({ op: 1, t: '#new-kind' }, { seq }));
    const url = await relay((socket) => {
      for (const f of frames) socket.send(f);
    });
    const skipped: SkipReason[] = [];
    const abort = new AbortController();
    const reading = source(url, skipped, { maxUnacked: 1, maxQueuedFrames: 10 }).read(
      null,
      interest(),
      abort.signal,
    );
    const first = await reading.next();
    expect(first.value?.cursor.seq).toBe(1);
    // Batch 1 is not stored: the thread read batch 2 at most, never the frames after it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(skipped).toEqual([]);
    const second = await reading.next();
    expect(second.value?.cursor.seq).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(skipped).toEqual([]);
    // Batch 2 stored: the rest is read.
    let last = 0;
    while (last < 502) last = ((await reading.next()).value?.cursor.seq as number | undefined) ?? last;
    expect(skipped.length).toBe(500);
    abort.abort();
    expect((await reading.next()).done).toBe(true);
  }, 30_000);

  it('hands on a kept like with its proof, and frees the proof once the next batch is asked for (it was stored)', async () => {
    // Issue 31: each proof crosses from the thread as an ArrayBuffer of its own; the serving thread gives it back.
    const path = 'app.bsky.feed.like/proved';
    const record = await like(TRACKED);
    const tree = await block({
      l: null,
      e: [{ p: 0, k: toBytes(new TextEncoder().encode(path)), v: CID.toCidLink(record.cid), t: null }],
    });
    const unsigned = { did: BOB, version: 3, data: CID.toCidLink(tree.cid), rev: '3kabc', prev: null };
    const signer = await Secp256k1PrivateKeyExportable.createKeypair();
    const commit = await block({ ...unsigned, sig: toBytes(await signer.sign(encode(unsigned))) });
    const proved = frame(
      { op: 1, t: '#commit' },
      {
        seq: 1,
        repo: BOB,
        commit: CID.toCidLink(commit.cid),
        rev: '3kabc',
        blocks: toBytes(await car([commit, tree, record])),
        ops: [{ action: 'create', path, cid: CID.toCidLink(record.cid) }],
        time: '2026-01-01T00:00:01.000Z',
      },
    );
    const url = await relay((socket) => {
      socket.send(proved);
      socket.send(frame({ op: 1, t: '#new-kind' }, { seq: 2 }));
    });
    const abort = new AbortController();
    const reading = source(url, []).read(null, interest(), abort.signal);
    const first = (await reading.next()).value as StreamBatch;
    const event = first.events[0];
    const proof = event?.type === 'like' ? event.proof : undefined;
    // Whole while the engine stores the batch.
    expect(proof?.length).toBeGreaterThan(0);
    expect((await reading.next()).value?.cursor.seq).toBe(2);
    expect(proof?.length).toBe(0);
    abort.abort();
    expect((await reading.next()).done).toBe(true);
  }, 30_000);

  it('a stop closes the connection and ends the thread; an interest the thread cannot follow ends the read with an error', async () => {
    let opened = 0;
    let closed = 0;
    const url = await relay((socket) => {
      opened++;
      socket.on('close', () => closed++);
    });
    const abort = new AbortController();
    const mine = interest();
    const firehose = source(url, []);
    const reading = firehose.read(null, mine, abort.signal);
    const pending = reading.next();
    await expect.poll(() => opened, { timeout: 10_000 }).toBe(1);
    abort.abort();
    expect((await pending).done).toBe(true);
    await expect.poll(() => closed).toBe(1);

    const failing = (async () => {
      for await (const batch of firehose.read(null, mine, new AbortController().signal))
        expect(batch).toBeUndefined();
    })();
    await expect.poll(() => opened, { timeout: 10_000 }).toBe(2);
    mine.load({ tracked: [], people: [], officials: [], names: () => false });
    await expect(failing).rejects.toThrow(/worker thread/);
    await expect.poll(() => closed).toBe(2);
  }, 30_000);
});
