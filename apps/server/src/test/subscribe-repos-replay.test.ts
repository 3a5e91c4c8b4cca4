import { decode, decodeFirst, encode } from '@atcute/cbor';
import type { TestNetworkNoAppView } from '@atproto/dev-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { atprotoNetworkSkipReason } from './atproto-network';
import { startReplayServer, type ReplayServer } from './subscribe-repos-replay';

const reason = atprotoNetworkSkipReason();
const PATH = '/xrpc/com.atproto.sync.subscribeRepos';

const seqOf = (frame: Uint8Array) => (decode(decodeFirst(frame)[1]) as { seq: number }).seq;
const headerOf = (frame: Uint8Array) => frame.subarray(0, frame.length - decodeFirst(frame)[1].length);
const bodyOf = (frame: Uint8Array) => decode(decodeFirst(frame)[1]) as Record<string, unknown>;
const concatFrames = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
};

/** Frames from `url` until `count` have arrived or `ms` have passed. */
async function read(url: string, count: number, ms = 10_000): Promise<Uint8Array[]> {
  const frames: Uint8Array[] = [];
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    socket.on('message', (data: Buffer) => {
      frames.push(new Uint8Array(data));
      if (frames.length >= count) {
        clearTimeout(timer);
        resolve();
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on('error', reject);
  });
  socket.terminate();
  return frames;
}

// Frames of a real PDS (the local network's, without an AppView): accounts, posts, a like, a multi-op commit and a
// deletion, read back from its own subscribeRepos.
describe.skipIf(reason)('the subscribeRepos replay server', () => {
  let network: TestNetworkNoAppView;
  let recorded: Uint8Array[] = [];
  const servers: ReplayServer[] = [];
  const serve = async (options: Omit<Parameters<typeof startReplayServer>[0], 'frames'>) => {
    const server = await startReplayServer({ frames: recorded, ...options });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    const { TestNetworkNoAppView } = await import('@atproto/dev-env');
    network = await TestNetworkNoAppView.create({});
    const sc = network.getSeedClient();
    const alice = await sc.createAccount('alice', {
      handle: 'alice.test',
      email: 'alice@example.test',
      password: 'alice-pw',
    });
    const bob = await sc.createAccount('bob', {
      handle: 'bob.test',
      email: 'bob@example.test',
      password: 'bob-pw',
    });
    const post = await sc.post(alice.did, 'hello #ManaBoard');
    await sc.like(bob.did, post.ref);
    await sc.follow(bob.did, alice.did);
    await sc.deletePost(alice.did, post.ref.uri);
    const head = (await network.pds.ctx.sequencer.curr()) ?? 0;
    recorded = await read(`${network.pds.url.replace(/^http/, 'ws')}${PATH}?cursor=0`, head);
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) await server.close();
    await network?.close();
  });

  it('serves the recorded frames byte for byte from ?cursor=0, and only what follows a cursor', async () => {
    expect(recorded.length).toBeGreaterThan(8);
    const server = await serve({ rate: 10_000 });
    const all = await read(`${server.url}${PATH}?cursor=0`, recorded.length);
    expect(all.map((f) => Buffer.from(f).toString('hex'))).toEqual(
      recorded.map((f) => Buffer.from(f).toString('hex')),
    );
    const cursor = seqOf(recorded[3] ?? new Uint8Array());
    const after = await read(`${server.url}${PATH}?cursor=${cursor}`, recorded.length - 4);
    expect(after.map(seqOf)).toEqual(recorded.slice(4).map(seqOf));
    expect(Buffer.from(after[0] ?? []).equals(Buffer.from(recorded[4] ?? []))).toBe(true);
  });

  it('produces events at its rate: a reader without a cursor gets only what is produced after it connects', async () => {
    const server = await serve({ rate: 20, live: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const headBefore = server.headSeq();
    const started = Date.now();
    const frames = await read(`${server.url}${PATH}`, 1000, 1500);
    const seconds = (Date.now() - started) / 1000;
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.length).toBeLessThanOrEqual(Math.ceil(seconds * 20) + 2);
    expect(seqOf(frames[0] ?? new Uint8Array())).toBeGreaterThan(headBefore);
  });

  it('in live mode changes only seq and time (DAG-CBOR re-encodes every other field to the same bytes)', async () => {
    for (const frame of recorded) {
      const [, body] = decodeFirst(frame);
      expect(Buffer.from(encode(decode(body))).equals(Buffer.from(body))).toBe(true);
    }
    const server = await serve({ rate: 5_000, live: true, backlogSeconds: 1 });
    const firstSeq = seqOf(recorded[0] ?? new Uint8Array());
    const frames = await read(`${server.url}${PATH}?cursor=0`, recorded.length * 2 + 3);
    expect(frames.map(seqOf)).toEqual(frames.map((_, n) => firstSeq + n));
    frames.forEach((frame, n) => {
      const original = recorded[n % recorded.length] ?? new Uint8Array();
      expect(Buffer.from(headerOf(frame))).toEqual(Buffer.from(headerOf(original)));
      const { seq: _s, time, ...rest } = bodyOf(frame);
      const { seq: _o, time: _t, ...expected } = bodyOf(original);
      expect(encode(rest)).toEqual(encode(expected));
      expect(Math.abs(Date.parse(String(time)) - server.producedAt(firstSeq + n))).toBeLessThan(2);
    });
  });

  it('in live mode sends an injected event as the next one produced, at its own seq and time', async () => {
    const server = await serve({ rate: 200, live: true });
    const firstSeq = seqOf(recorded[0] ?? new Uint8Array());
    const made: Array<{ seq: number; time: string }> = [];
    const seq = server.inject((s, time) => {
      made.push({ seq: s, time });
      return concatFrames(encode({ op: 1, t: '#info' }), encode({ name: 'Injected', seq: s, time }));
    });
    const frames = await read(`${server.url}${PATH}?cursor=${firstSeq - 1}`, seq - firstSeq + 2);
    const at = frames.findIndex((frame) => bodyOf(frame).name === 'Injected');
    expect(at).toBe(seq - firstSeq);
    expect(bodyOf(frames[at] ?? new Uint8Array())).toEqual({ name: 'Injected', ...made[0] });
    expect(seqOf(frames[at + 1] ?? new Uint8Array())).toBe(seq + 1);
    const recordedOnly = await serve({ rate: 1 });
    expect(() => recordedOnly.inject(() => new Uint8Array())).toThrow(/live/);
  });

  it('answers a cursor ahead of the stream with a FutureCursor error frame', async () => {
    const server = await serve({ rate: 10 });
    const [frame] = await read(`${server.url}${PATH}?cursor=999999`, 1);
    const [header, rest] = decodeFirst(frame ?? new Uint8Array());
    expect(header).toEqual({ op: -1 });
    expect(decode(rest)).toMatchObject({ error: 'FutureCursor' });
  });
});
