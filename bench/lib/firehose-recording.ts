// A recording of a real PDS's `com.atproto.sync.subscribeRepos` frames, byte for byte as the PDS sent them, made
// at bench time from a local network (@atproto/dev-env's PLC and PDS, no AppView: nothing else reads the stream
// while it is written) and cached on disk under a key hashed from the generator's parameters and version, so a run
// reuses it and a change to the generator (RECORDING_VERSION) records anew. Never committed (generated data).
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeFirst } from '@atcute/cbor';
import WebSocket from 'ws';
import { writeTraffic, type Traffic, type TrafficParams } from './firehose-traffic';

export type Recording = {
  /** The frames in stream order (a frame = the CBOR header followed by the CBOR body, as sent). */
  frames: Uint8Array[];
  /** Each frame's `seq` (same order as `frames`). */
  seqs: number[];
  meta: RecordingMeta;
};

export type RecordingMeta = Traffic & {
  key: string;
  params: TrafficParams;
  createdAt: string;
  /** Time to write the traffic and read it back, in ms: wall clock, and this process's CPU time (the PDS runs
   * in it), which says more on a shared machine. */
  generationMs: number;
  generationCpuMs: number;
};

/** Sizes: BENCH_FIREHOSE_* to change them (each change records anew, cached under its own key). */
export function recordingParams(): TrafficParams {
  const n = (name: string, fallback: number) => Number(process.env[`BENCH_FIREHOSE_${name}`] ?? fallback);
  return {
    deepAccounts: n('DEEP_ACCOUNTS', 6),
    recordsEach: n('RECORDS_EACH', 2000),
    lightAccounts: n('LIGHT_ACCOUNTS', 30),
    publicCalls: n('PUBLIC_CALLS', 2000),
    programmeCalls: n('PROGRAMME_CALLS', 1000),
    seed: n('SEED', 22),
  };
}

/**
 * Bump when the generated traffic or the file format changes, so cached recordings are made again (the key also
 * holds the parameters and the PDS's version, whose frames are what is recorded).
 */
const RECORDING_VERSION = 1;

async function cacheKey(params: TrafficParams): Promise<string> {
  const pds = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    '../../node_modules/@atproto/pds/package.json',
  );
  const { version } = JSON.parse(await fs.readFile(pds, 'utf8')) as { version: string };
  return createHash('sha256')
    .update(JSON.stringify({ params, RECORDING_VERSION, pds: version }))
    .digest('hex')
    .slice(0, 16);
}

export const recordingDir = (key: string) =>
  path.join(process.env.BENCH_CACHE_DIR ?? path.join(os.tmpdir(), 'manaboard-bench'), `firehose-${key}`);

/** The `seq` of a subscribeRepos frame (every event kind the PDS sends carries one). */
export function frameSeq(frame: Uint8Array): number {
  const [, rest] = decodeFirst(frame);
  const [body] = decodeFirst(rest);
  const seq = (body as { seq?: unknown }).seq;
  if (typeof seq !== 'number') throw new Error('a subscribeRepos frame without a seq');
  return seq;
}

/** Every frame from `?cursor=0` through `toSeq`, as the PDS sends them. */
export async function captureFrames(pdsUrl: string, toSeq: number): Promise<Uint8Array[]> {
  const url = `${pdsUrl.replace(/^http/, 'ws')}/xrpc/com.atproto.sync.subscribeRepos?cursor=0`;
  const frames: Uint8Array[] = [];
  const socket = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    socket.on('message', (data: Buffer) => {
      const frame = new Uint8Array(data);
      frames.push(frame);
      if (frameSeq(frame) >= toSeq) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`the stream closed after ${frames.length} frames`)));
  });
  socket.removeAllListeners('close');
  socket.close();
  return frames;
}

/** frames.bin: each frame as a 4-byte big-endian length and its bytes. */
function pack(frames: Uint8Array[]): Buffer {
  const out = Buffer.alloc(frames.reduce((n, f) => n + 4 + f.length, 0));
  let at = 0;
  for (const frame of frames) {
    out.writeUInt32BE(frame.length, at);
    out.set(frame, at + 4);
    at += 4 + frame.length;
  }
  return out;
}

function unpack(bytes: Buffer): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    frames.push(new Uint8Array(bytes.buffer, bytes.byteOffset + at + 4, length));
    at += 4 + length;
  }
  return frames;
}

async function record(params: TrafficParams, key: string): Promise<Recording> {
  const { TestNetworkNoAppView } = await import('@atproto/dev-env');
  const started = performance.now();
  const cpu = process.cpuUsage();
  const network = await TestNetworkNoAppView.create({});
  try {
    const traffic = await writeTraffic(network, params);
    const frames = await captureFrames(network.pds.url, traffic.phases.programme.toSeq);
    const meta: RecordingMeta = {
      ...traffic,
      key,
      params,
      createdAt: new Date().toISOString(),
      generationMs: performance.now() - started,
      generationCpuMs: ((u) => (u.user + u.system) / 1000)(process.cpuUsage(cpu)),
    };
    const dir = recordingDir(key);
    const partial = `${dir}.partial-${process.pid}`;
    await fs.mkdir(partial, { recursive: true });
    await fs.writeFile(path.join(partial, 'frames.bin'), pack(frames));
    await fs.writeFile(path.join(partial, 'meta.json'), JSON.stringify(meta, null, 1));
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rename(partial, dir);
    return { frames, seqs: frames.map(frameSeq), meta };
  } finally {
    await network.close();
  }
}

/** The cached recording for the current parameters, recording it first when it is missing. */
export async function loadRecording(log: (line: string) => void = () => undefined): Promise<Recording> {
  const params = recordingParams();
  const key = await cacheKey(params);
  const dir = recordingDir(key);
  try {
    const meta = JSON.parse(await fs.readFile(path.join(dir, 'meta.json'), 'utf8')) as RecordingMeta;
    const frames = unpack(await fs.readFile(path.join(dir, 'frames.bin')));
    return { frames, seqs: frames.map(frameSeq), meta };
  } catch {
    log(`recording the firehose (${JSON.stringify(params)}) into ${dir} …`);
    return record(params, key);
  }
}

/** The frames of a phase (by seq range). */
export function framesOf(recording: Recording, range: { fromSeq: number; toSeq: number }): Uint8Array[] {
  return recording.frames.filter((_, i) => {
    const seq = recording.seqs[i] ?? -1;
    return seq >= range.fromSeq && seq <= range.toSeq;
  });
}
