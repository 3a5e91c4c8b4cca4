// The yardstick of the distinct-traffic bench, in its own process: a WebSocket reader of the relay (the same `ws`
// client the worker uses) that only splits each frame into its header and body (one CBOR head read, as any
// consumer must before anything else) and counts them, from the first frame until `frames` were read.
import { decodeFirst } from '@atcute/cbor';
import WebSocket from 'ws';

const { url, frames } = JSON.parse(process.env.BENCH_PLAIN_READER ?? '{}') as { url: string; frames: number };
const socket = new WebSocket(`${url}/xrpc/com.atproto.sync.subscribeRepos?cursor=0`, {
  maxPayload: 64 * 1024 * 1024,
});
let read = 0;
let bodyBytes = 0;
let started = 0;
let cpu = process.cpuUsage();
socket.on('open', () => {
  started = performance.now();
  cpu = process.cpuUsage();
});
socket.on('message', (data: Buffer) => {
  const [, body] = decodeFirst(data);
  bodyBytes += body.length;
  if (++read < frames) return;
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - started) / 1000;
  socket.close();
  process.send?.({ frames: read, seconds, cpuSeconds: (used.user + used.system) / 1e6, bodyBytes });
});
socket.on('error', (error) => {
  console.error('plain reader:', error);
  process.exit(1);
});
process.on('disconnect', () => process.exit(0));
