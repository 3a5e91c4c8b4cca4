import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decode, decodeFirst, encode } from '@atcute/cbor';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A stand-in relay for load tests and benchmarks: serves recorded `com.atproto.sync.subscribeRepos` frames of a
 * real PDS over the real protocol (a WebSocket at /xrpc/com.atproto.sync.subscribeRepos, one binary message per
 * frame, `?cursor=` by seq) as a live stream producing `rate` events per second.
 *
 * The stream is the recording repeated: event n is recorded frame n mod L. Frames are sent byte for byte as
 * recorded, unless `live` is set: then each frame's body is decoded and encoded again with @atcute/cbor (DAG-CBOR's
 * canonical form, so every other field keeps its exact bytes; checked by the test) with two fields changed, `seq`
 * (the first recorded seq + n, so repeats keep counting up) and `time` (when the server produced the event, so lag
 * measured from it is real). Without `live`, only the recording's first pass is served, untouched.
 *
 * `backlogSeconds` starts the stream with that many seconds of events already produced (a consumer behind by that
 * much). As a relay does, a connection with a cursor gets everything after it as fast as it reads (the backlog),
 * then follows the live head; without a cursor it starts at the head; a cursor ahead of the head gets a
 * `FutureCursor` error frame and is closed. Sending pauses while a slow reader has more than 4 MB unsent.
 */
export type ReplayOptions = {
  frames: Uint8Array[];
  rate: number;
  live?: boolean;
  backlogSeconds?: number;
  port?: number;
};

export type ReplayServer = {
  /** ws://127.0.0.1:port, for BLUESKY_RELAY_URL. */
  url: string;
  /** The seq of the newest event produced so far. */
  headSeq: () => number;
  /** When the event with this seq was produced (ms since the epoch), while it is in the stream. */
  producedAt: (seq: number) => number;
  /**
   * Live mode: the next event produced is `make(seq, time)` instead of the recording's (a frame the bench writes,
   * e.g. a like to time end to end); returns its seq.
   */
  inject: (make: (seq: number, time: string) => Uint8Array) => number;
  close: () => Promise<void>;
};

const HIGH_WATER = 4 * 1024 * 1024;
const TICK_MS = 5;

type Parsed = { header: Uint8Array; body: Record<string, unknown>; seq: number };

function parse(frame: Uint8Array): Parsed {
  const [, rest] = decodeFirst(frame);
  const header = frame.subarray(0, frame.length - rest.length);
  const body = decode(rest) as Record<string, unknown>;
  if (typeof body.seq !== 'number') throw new Error('a recorded frame without a seq');
  return { header, body, seq: body.seq };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function errorFrame(error: string, message: string): Uint8Array {
  return concat(encode({ op: -1 }), encode({ error, message }));
}

export async function startReplayServer(options: ReplayOptions): Promise<ReplayServer> {
  const parsed = options.frames.map(parse);
  const first = parsed[0];
  if (!first) throw new Error('nothing to replay');
  const length = parsed.length;
  const firstSeq = first.seq;
  const backlog = Math.round((options.backlogSeconds ?? 0) * options.rate);
  const started = Date.now();
  /** How many events the stream has produced by now (the backlog, then `rate` a second). */
  const produced = () => {
    const n = backlog + Math.floor(((Date.now() - started) * options.rate) / 1000);
    return options.live ? n : Math.min(n, length);
  };
  const seqAt = (n: number) => (options.live ? firstSeq + n : (parsed[n]?.seq ?? firstSeq + n));
  const indexAfter = (cursor: number) => {
    if (options.live) return Math.max(0, cursor - firstSeq + 1);
    const i = parsed.findIndex((p) => p.seq > cursor);
    return i < 0 ? length : i;
  };
  const producedAt = (seq: number) => started + ((seq - firstSeq - backlog) * 1000) / options.rate;
  const injected = new Map<number, (seq: number, time: string) => Uint8Array>();
  const frameAt = (n: number): Uint8Array => {
    const p = parsed[n % length];
    if (!p) throw new Error(`no frame ${n}`);
    if (!options.live) return options.frames[n] ?? new Uint8Array();
    const time = new Date(producedAt(firstSeq + n)).toISOString();
    const make = injected.get(n);
    if (make) return make(firstSeq + n, time);
    return concat(p.header, encode({ ...p.body, seq: firstSeq + n, time }));
  };

  const sockets = new Set<WebSocket>();
  const pump = async (socket: WebSocket, from: number) => {
    let n = from;
    while (socket.readyState === socket.OPEN) {
      const head = produced();
      while (n < head && socket.bufferedAmount < HIGH_WATER && socket.readyState === socket.OPEN) {
        socket.send(frameAt(n), { binary: true });
        n++;
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
  };

  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://replay');
    if (url.pathname !== '/xrpc/com.atproto.sync.subscribeRepos') {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      const cursor = url.searchParams.get('cursor');
      const head = produced();
      if (cursor !== null && cursor !== '' && Number(cursor) > seqAt(head - 1)) {
        ws.send(errorFrame('FutureCursor', 'Cursor in the future.'), { binary: true });
        ws.close();
        return;
      }
      void pump(ws, cursor === null || cursor === '' ? head : indexAfter(Number(cursor)));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    headSeq: () => seqAt(produced() - 1),
    producedAt,
    inject: (make) => {
      if (!options.live) throw new Error('only a live replay takes injected events');
      const n = Math.max(produced(), ...[...injected.keys()].map((k) => k + 1));
      injected.set(n, make);
      return seqAt(n);
    },
    close: async () => {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
