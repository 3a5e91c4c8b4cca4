// Issue 31: what the stream interest's waiting room of likes holds in memory, on the distinct stream's frames (the
// cached stream of bench/stream-distinct.ts; generated first if missing). The frames are read in order by the
// frame reader and an interest that follows nothing (the programme's share is a few %), as `npm start` reads them
// in-thread, and the V8 heap used (after a full collection) is printed every BENCH_WAITING_EVERY frames (default
// 100,000) with the events waiting, up to BENCH_WAITING_FRAMES (default 1,000,000): one JSON line each, and at the
// end the CPU the reading took (the collections for the measures left out), so a smaller room is not bought with
// a slower reader. Usage:
// npx tsx bench/stream-waiting-memory.ts
import fs from 'node:fs/promises';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createFrameReader } from '../apps/server/src/integrations/bluesky/bluesky-frames';
import { postMadeAt } from '../apps/server/src/integrations/bluesky/bluesky-tid';
import { StreamInterest } from '../apps/server/src/social/stream-interest';
import { loadDistinctStream, partName, streamDir } from './lib/distinct-stream';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10;
};

const meta = await loadDistinctStream((line) => console.error(line));
const dir = streamDir(meta.key);
const limit = Math.min(Number(process.env.BENCH_WAITING_FRAMES ?? 1_000_000), meta.params.frames);
const every = Number(process.env.BENCH_WAITING_EVERY ?? 100_000);
const reader = createFrameReader();
const interest = new StreamInterest(Date.now, postMadeAt);
interest.load({ tracked: [], people: [], officials: [], names: () => false });
const base = heapMb();
console.log(JSON.stringify({ frames: 0, waiting: 0, heapMb: base }));
let frames = 0;
// CPU (user + system) of the reading alone: each measure's forced collections are subtracted.
let cpuUs = 0;
let cpuFrom = process.cpuUsage();
const cpuSince = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return used.user + used.system;
};
for (let part = 0; part < meta.parts && frames < limit; part++) {
  const name = path.join(dir, partName(part));
  const [bytes, index] = await Promise.all([fs.readFile(`${name}.bin`), fs.readFile(`${name}.idx`)]);
  const sizes = new Uint32Array(index.buffer, index.byteOffset, index.length / 4);
  let at = 0;
  for (let i = 0; i < sizes.length && frames < limit; i += 2) {
    const size = sizes[i] ?? 0;
    // A copy, as the socket gives each frame a buffer of its own (a view would hold the whole part).
    reader.read(Uint8Array.prototype.slice.call(bytes, at, at + size), interest);
    at += size;
    frames++;
    if (frames % every === 0) {
      cpuUs += cpuSince(cpuFrom);
      const heap = heapMb();
      const waiting = interest.size.waiting;
      console.log(
        JSON.stringify({
          frames,
          waiting,
          heapMb: heap,
          bytesPerWaiting: waiting ? Math.round(((heap - base) * 2 ** 20) / waiting) : null,
        }),
      );
      cpuFrom = process.cpuUsage();
    }
  }
}
cpuUs += cpuSince(cpuFrom);
console.log(
  JSON.stringify({
    frames,
    cpuMs: Math.round(cpuUs / 1000),
    usPerFrame: Math.round((cpuUs / frames) * 100) / 100,
  }),
);
