// The distinct-traffic relay's own process (distinct-relay.ts starts it), as a relay is another machine: serves the
// generated stream over com.atproto.sync.subscribeRepos from a cursor, reading the part files in order, never
// faster than the socket drains (sending pauses above 4 MB unsent). Frame i is produced at `relayStart + (i −
// backlog) / rate` s: `backlog` frames are already there when the relay starts (a consumer behind by that much),
// the rest come live at `rate`; each frame's `time` is rewritten to when it was produced (24 bytes in place, the
// signed blocks untouched), so lag is real. Without a cursor, a consumer starts at the head as on the network, or at
// the first frame with `fromFirst` (a fresh `npm start` has no cursor to resume from). Beside the relay it answers
// what the worker reads of the network: the AppView's profiles and handles, getPosts (nothing: the refresh's read
// raises no count), and the PLC directory's DID documents with each account's signing key.
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { partName, PART_FRAMES, streamDir, type DistinctMeta } from './distinct-stream';
import { planProgramme } from './distinct-planted';
import {
  accountOfDid,
  didOf,
  handleOf,
  OFFICIAL_HANDLE,
  OFFICIAL_INDEX,
  publicMultikey,
} from './distinct-traffic';

export type RelayOptions = {
  key: string;
  rate: number;
  backlog: number;
  fromFirst: boolean;
  /** The faults bench (bench/faults.ts): a fixed port and start, so a restarted relay is the same relay. */
  port?: number;
  relayStart?: number;
  /** The first connection is served from this many frames before the cursor it asks (a relay replaying). */
  rewindFirst?: number;
  /**
   * Every `every` frames (never a planted one), the relay misbehaves: it sends the next frame before this one (out
   * of order), or, every other time, sends the last `back` frames again (a seq that goes backwards).
   */
  disorder?: { every: number; back: number };
};

/** What the relay tells its parent (the faults bench): each connection's cursor, each frame sent out of order. */
export type RelayEvent =
  | { type: 'connect'; id: number; cursor: number | null; from: number; agent: string | null }
  | { type: 'close'; id: number; frames: number }
  | { type: 'disorder'; kind: 'swap' | 'back'; at: number; frames: number }
  | { type: 'end'; from: number };

const options = JSON.parse(process.env.BENCH_DISTINCT_RELAY ?? '{}') as RelayOptions;
const dir = streamDir(options.key);
const meta = JSON.parse(await fs.readFile(path.join(dir, 'meta.json'), 'utf8')) as DistinctMeta;
const seed = meta.params.seed;
const total = meta.params.frames;
const indexes: Uint32Array[] = [];
for (let part = 0; part < meta.parts; part++) {
  const bytes = await fs.readFile(path.join(dir, `${partName(part)}.idx`));
  indexes.push(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
}

const relayStart = options.relayStart ?? Date.now();
const tell = (event: RelayEvent) => process.send?.(event);
// The frames the programme's plan put events in: the disorder fault never sends one of those out of order (the
// consumer skips a frame that comes after a later one, so its event would be lost to the stream: docs/networks.md).
const planted = options.disorder
  ? new Set(planProgramme(meta.params, meta.start).at.keys())
  : new Set<number>();
let disorderCount = 0;
const producedAt = (i: number) => relayStart + ((i - options.backlog) * 1000) / options.rate;
const produced = () =>
  Math.min(total, options.backlog + Math.floor(((Date.now() - relayStart) * options.rate) / 1000));
const HIGH_WATER = 4 * 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends frames from index `from` while the socket is open: a part at a time, read fresh (the socket holds them). */
async function pump(socket: WebSocket, from: number): Promise<number> {
  let i = from;
  let held: { i: number; frame: Buffer } | null = null;
  const recent: Buffer[] = [];
  while (socket.readyState === socket.OPEN && i < total) {
    const part = Math.floor(i / PART_FRAMES);
    const index = indexes[part];
    if (!index) return i - from;
    const bytes = await fs.readFile(path.join(dir, `${partName(part)}.bin`));
    let at = 0;
    for (let k = 0; k < (i - part * PART_FRAMES) * 2; k += 2) at += index[k] ?? 0;
    for (
      let k = (i - part * PART_FRAMES) * 2;
      k < index.length && socket.readyState === socket.OPEN;
      k += 2
    ) {
      while (i >= produced()) await sleep(Math.max(1, Math.min(5, producedAt(i) - Date.now())));
      while (socket.bufferedAmount > HIGH_WATER && socket.readyState === socket.OPEN) await sleep(2);
      const length = index[k] ?? 0;
      const frame = bytes.subarray(at, at + length);
      frame.write(new Date(producedAt(i)).toISOString(), index[k + 1] ?? 0, 'latin1');
      at += length;
      const d = options.disorder;
      if (d && i > 0 && i + 1 < total && i % d.every === 0 && !planted.has(i) && !planted.has(i + 1)) {
        if (disorderCount++ % 2 === 0) {
          // Out of order: this frame is held back and sent after the next one.
          held = { i, frame: Buffer.from(frame) };
          i++;
          continue;
        }
        // Backwards: the last frames sent go again, then this one.
        for (const old of recent) socket.send(old, { binary: true });
        tell({ type: 'disorder', kind: 'back', at: i, frames: recent.length });
      }
      socket.send(frame, { binary: true });
      if (held) {
        socket.send(held.frame, { binary: true });
        tell({ type: 'disorder', kind: 'swap', at: held.i, frames: 1 });
        held = null;
      }
      if (d) {
        recent.push(Buffer.from(frame));
        if (recent.length > d.back) recent.shift();
      }
      i++;
    }
  }
  if (i >= total && socket.readyState === socket.OPEN) tell({ type: 'end', from });
  return i - from;
}

const sockets = new Set<WebSocket>();
let connections = 0;
const wss = new WebSocketServer({ noServer: true });
const DOC_CONTEXT = ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'];

const accountOfActor = (actor: string): number | null => {
  if (actor.startsWith('did:')) return accountOfDid(seed, actor);
  if (actor === OFFICIAL_HANDLE) return OFFICIAL_INDEX;
  const m = /^u(\d+)\.bench\.test$/.exec(actor);
  return m ? Number(m[1]) : null;
};
const profile = (account: number) => ({
  did: didOf(seed, account),
  handle: handleOf(account),
  displayName: handleOf(account).split('.')[0],
  followersCount: 20,
  followsCount: 20,
  postsCount: 10,
  createdAt: '2024-01-01T00:00:00.000Z',
});

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://relay');
  const answer = (status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  switch (url.pathname) {
    case '/xrpc/app.bsky.actor.getProfile': {
      const account = accountOfActor(url.searchParams.get('actor') ?? '');
      return account === null
        ? answer(400, { error: 'InvalidRequest', message: 'Profile not found' })
        : answer(200, profile(account));
    }
    case '/xrpc/app.bsky.actor.getProfiles':
      return answer(200, {
        profiles: url.searchParams.getAll('actors').flatMap((actor) => {
          const account = accountOfActor(actor);
          return account === null ? [] : [profile(account)];
        }),
      });
    case '/xrpc/com.atproto.identity.resolveHandle': {
      const account = accountOfActor(url.searchParams.get('handle') ?? '');
      return account === null
        ? answer(400, { error: 'InvalidRequest' })
        : answer(200, { did: didOf(seed, account) });
    }
    case '/xrpc/app.bsky.feed.getPosts':
      return answer(200, { posts: [] });
    default: {
      // The PLC directory's read: GET /<did>.
      const did = decodeURIComponent(url.pathname.slice(1));
      const account = accountOfDid(seed, did);
      if (account === null) return answer(404, { message: 'DID not registered' });
      return answer(200, {
        '@context': DOC_CONTEXT,
        id: did,
        alsoKnownAs: [`at://${handleOf(account)}`],
        verificationMethod: [
          {
            id: `${did}#atproto`,
            type: 'Multikey',
            controller: did,
            publicKeyMultibase: publicMultikey(seed, account),
          },
        ],
        service: [
          { id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: 'http://pds.invalid' },
        ],
      });
    }
  }
});
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url ?? '/', 'http://relay');
  if (url.pathname !== '/xrpc/com.atproto.sync.subscribeRepos') {
    socket.destroy();
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    ws.on('error', () => undefined);
    const cursor = url.searchParams.get('cursor');
    // seq = index + 1: the frames after seq c begin at index c.
    let from = cursor ? Math.min(Number(cursor), total) : options.fromFirst ? 0 : produced();
    if (options.rewindFirst && connections === 0) from = Math.max(0, from - options.rewindFirst);
    const id = connections++;
    tell({
      type: 'connect',
      id,
      cursor: cursor ? Number(cursor) : null,
      from,
      agent: req.headers['user-agent'] ?? null,
    });
    void pump(ws, from).then(
      (frames) => tell({ type: 'close', id, frames }),
      (error: unknown) => console.error('relay:', error),
    );
  });
});
await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;

// The faults bench: drop every connection (the consumer resumes from its stored cursor).
process.on('message', (m) => {
  if ((m as { drop?: boolean }).drop) for (const socket of sockets) socket.terminate();
});
process.on('disconnect', () => {
  for (const socket of sockets) socket.terminate();
  server.close();
  process.exit(0);
});
process.send?.({ url: `ws://127.0.0.1:${port}`, httpUrl: `http://127.0.0.1:${port}`, relayStart });
