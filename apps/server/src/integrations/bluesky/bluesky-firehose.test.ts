import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { StreamInterest } from '../../social/stream-interest';
import type { SkipReason, StreamLog } from '../../social/stream-source';
import { BlueskyFirehose, StalledConnectionError } from './bluesky-firehose';
import { createFrameReader } from './bluesky-frames';
import { commitFrame, frame, like } from './bluesky-frames.test-support';

const TRACKED = 'at://did:plc:ann/app.bsky.feed.post/tracked';

/** A local WebSocket server standing in for the relay's connection (the frames are subscribeRepos frames). */
async function relay(onConnection: (socket: WebSocket, url: string) => void, autoPong = true) {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1', autoPong });
  server.on('connection', (socket, request) => onConnection(socket, request.url ?? ''));
  await new Promise((resolve) => server.once('listening', resolve));
  servers.push(server);
  return `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

function source(
  relayUrl: string,
  skipped: SkipReason[],
  extra: { idleTimeoutMs?: number; log?: StreamLog } = {},
) {
  return new BlueskyFirehose({
    relayUrl,
    log: pino({ level: 'silent' }),
    reader: createFrameReader({ maxFrameBytes: 2_000 }),
    batchSize: 10,
    flushMs: 50,
    gapNote: 'test',
    onSkip: (reason) => skipped.push(reason),
    ...extra,
  });
}

function interest(): StreamInterest {
  const i = new StreamInterest();
  i.load({ tracked: [TRACKED], people: [], officials: [], names: () => false });
  return i;
}

describe('the Bluesky stream source on a connection', () => {
  it('asks from the cursor, skips bad frames with a count, and hands on the cursor after the good ones', async () => {
    const urls: string[] = [];
    const good = await commitFrame(3, 'did:plc:bob', [
      { action: 'create', path: 'app.bsky.feed.like/a', block: await like(TRACKED) },
    ]);
    const huge = frame({ op: 1, t: '#account' }, { seq: 4, did: 'did:plc:x', pad: 'x'.repeat(5_000) });
    const url = await relay((socket, at) => {
      urls.push(at);
      socket.send(new Uint8Array([0xff, 0x01]));
      socket.send(good);
      socket.send(huge);
      socket.send(frame({ op: 1, t: '#new-kind' }, { seq: 5 }));
    });
    const skipped: SkipReason[] = [];
    const abort = new AbortController();
    const batches = [];
    for await (const batch of source(url, skipped).read({ seq: 2 }, interest(), abort.signal)) {
      batches.push(batch);
      if (batch.cursor.seq === 5) abort.abort();
    }
    expect(urls).toEqual(['/xrpc/com.atproto.sync.subscribeRepos?cursor=2']);
    const events = batches.flatMap((b) => b.events);
    expect(events.map((e) => [e.type, e.type === 'like' ? e.id : ''])).toEqual([
      ['like', 'at://did:plc:bob/app.bsky.feed.like/a'],
    ]);
    // The malformed frame has no position; the unknown and the oversized ones are moved past.
    expect(batches.reduce((n, b) => n + b.seen, 0)).toBe(3);
    expect(batches.at(-1)?.cursor).toEqual({ seq: 5, time: '2026-01-01T00:00:03.000Z' });
    expect(skipped.sort()).toEqual(['malformed-frame', 'oversized-frame', 'unknown-frame']);
  });

  it('skips a frame re-sent at or before the cursor, or whose seq goes back, with a count: each event once, the cursor never back', async () => {
    const likeAt = async (seq: number, key: string) =>
      commitFrame(seq, 'did:plc:bob', [
        { action: 'create', path: `app.bsky.feed.like/${key}`, block: await like(TRACKED) },
      ]);
    const resent = await likeAt(4, 'b');
    const frames = [
      await likeAt(2, 'at-cursor'), // the frame at the cursor asked from, sent again (the PDS's outbox does)
      await likeAt(3, 'a'),
      await likeAt(3, 'a'), // a re-send
      await likeAt(1, 'old'), // a seq that goes back
      resent,
      // A relay that restarts re-sends what it sent before, thousands of frames in a row (issue 32's faults bench).
      ...Array.from({ length: 400 }, () => resent),
      await likeAt(5, 'c'),
    ];
    const url = await relay((socket) => {
      for (const f of frames) socket.send(f);
    });
    const skipped: SkipReason[] = [];
    const lines: Array<{ reason?: string; frames?: number; firstSeq?: number; lastSeq?: number }> = [];
    const log: StreamLog = {
      info: () => undefined,
      warn: (obj) => lines.push(obj),
      error: () => undefined,
    };
    const abort = new AbortController();
    const batches = [];
    for await (const batch of source(url, skipped, { log }).read({ seq: 2 }, interest(), abort.signal)) {
      batches.push(batch);
      if (batch.cursor.seq === 5) abort.abort();
    }
    const events = batches.flatMap((b) => b.events);
    expect(events.map((e) => (e.type === 'like' ? e.id : e.type))).toEqual([
      'at://did:plc:bob/app.bsky.feed.like/a',
      'at://did:plc:bob/app.bsky.feed.like/b',
      'at://did:plc:bob/app.bsky.feed.like/c',
    ]);
    const cursors = batches.map((b) => b.cursor.seq as number);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    expect(cursors.at(-1)).toBe(5);
    // The metric counts every frame skipped…
    expect(skipped).toEqual(Array.from({ length: 403 }, () => 'replayed-seq'));
    // …and the log has a line per run (3 runs here: seq 2; seq 3 and 1; 400 × seq 4), not one per frame, and
    // says how many frames each held.
    const replayed = lines.filter((l) => l.reason === 'replayed-seq');
    expect(replayed.length).toBeGreaterThanOrEqual(1);
    expect(replayed.length).toBeLessThanOrEqual(3);
    expect(replayed.reduce((n, l) => n + (l.frames ?? 0), 0)).toBe(403);
    expect(replayed.at(-1)).toMatchObject({ lastSeq: 4 });
  });

  it('a connection that stalls without closing (no frame, no pong) ends the read with an error and a count', async () => {
    const url = await relay(() => undefined, false);
    const skipped: SkipReason[] = [];
    const started = Date.now();
    const reading = (async () => {
      for await (const batch of source(url, skipped, { idleTimeoutMs: 400 }).read(
        null,
        interest(),
        new AbortController().signal,
      ))
        expect(batch).toBeUndefined();
    })();
    await expect(reading).rejects.toBeInstanceOf(StalledConnectionError);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(skipped).toEqual(['stalled-connection']);
  });

  it('a quiet connection that answers pings is not stalled; a closed one ends the read', async () => {
    let close: (() => void) | undefined;
    const url = await relay((socket) => {
      close = () => socket.close(1011, 'going away');
    });
    const skipped: SkipReason[] = [];
    const reading = (async () => {
      for await (const batch of source(url, skipped, { idleTimeoutMs: 300 }).read(
        null,
        interest(),
        new AbortController().signal,
      ))
        expect(batch).toBeUndefined();
    })();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    close?.();
    await expect(reading).rejects.toThrow(/closed the connection \(1011: going away\)/);
    expect(skipped).toEqual([]);
  });
});
