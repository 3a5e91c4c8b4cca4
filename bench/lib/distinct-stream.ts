// The distinct-traffic stream on disk (issue 31): generated once per parameters into a cache directory (worker
// threads build ranges of frames side by side), then read by the relay (distinct-relay-child.ts) and the bench. The
// content is a pure function of the seed and the network time of the first frame (kept in meta.json); a stream
// older than BENCH_DISTINCT_MAX_AGE_HOURS (default 48) is made again, so its records' dates stay near the run's
// (a record older than the programme's windows would be pruned, a post past its refresh window final).
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { planProgramme, type PlantedCounts } from './distinct-planted';
import { didOf, OFFICIAL_HANDLE, OFFICIAL_INDEX, type DistinctParams } from './distinct-traffic';

/** Bump when the generated frames change, so cached streams are made again. */
const GENERATOR_VERSION = 1;
/** A range of frames a worker thread builds into one part file. */
export type PartTask = { part: number; from: number; to: number };

/** Frames per part file (one task of a worker). */
export const PART_FRAMES = 20_000;

export type DistinctMeta = {
  key: string;
  params: DistinctParams;
  /** Network time of the first frame, ms since the epoch. */
  start: number;
  createdAt: string;
  parts: number;
  bytes: number;
  official: { did: string; handle: string };
  expected: Record<string, PlantedCounts & { official: boolean }>;
  planted: number;
  earlyLikes: number;
  generation: { ms: number; workers: number };
};

/** Sizes from BENCH_DISTINCT_* (each set of values is cached under its own key). */
export function distinctParams(): DistinctParams {
  const n = (name: string, fallback: number) => Number(process.env[`BENCH_DISTINCT_${name}`] ?? fallback);
  const frames = n('FRAMES', 1_000_000);
  return {
    frames,
    newShare: n('NEW_SHARE', 0.55),
    seed: n('SEED', 31),
    networkRate: n('NETWORK_RATE', 1_500),
    programmePosts: n('PROGRAMME_POSTS', Math.round(frames / 500)),
    officialPosts: n('OFFICIAL_POSTS', 20),
  };
}

const cacheRoot = () => process.env.BENCH_CACHE_DIR ?? path.join(os.tmpdir(), 'manaboard-bench');

export function streamKey(params: DistinctParams): string {
  return createHash('sha256')
    .update(JSON.stringify({ params, GENERATOR_VERSION }))
    .digest('hex')
    .slice(0, 16);
}

export const partName = (part: number) => `part-${String(part).padStart(4, '0')}`;

export const streamDir = (key: string) => path.join(cacheRoot(), `distinct-${key}`);

async function generate(
  params: DistinctParams,
  key: string,
  log: (line: string) => void,
): Promise<DistinctMeta> {
  const started = performance.now();
  const start = Date.now() - Math.ceil((params.frames * 1000) / params.networkRate);
  const plan = planProgramme(params, start);
  const dir = streamDir(key);
  const partial = `${dir}.partial-${process.pid}`;
  await fs.rm(partial, { recursive: true, force: true });
  await fs.mkdir(partial, { recursive: true });
  const parts = Math.ceil(params.frames / PART_FRAMES);
  const workers = Math.max(1, Number(process.env.BENCH_DISTINCT_WORKERS ?? os.availableParallelism()));
  log(`generating ${params.frames} distinct frames into ${dir} with ${workers} worker threads …`);
  const tasks: PartTask[] = Array.from({ length: parts }, (_, part) => ({
    part,
    from: part * PART_FRAMES,
    to: Math.min(params.frames, (part + 1) * PART_FRAMES),
  }));
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, () => {
      const worker = new Worker(new URL('./distinct-worker.ts', import.meta.url), {
        workerData: { params, start, planted: [...plan.at], dir: partial },
      });
      return new Promise<void>((resolve, reject) => {
        const next = () => worker.postMessage(tasks.shift() ?? null);
        worker.on('message', () => {
          if (++done % 10 === 0) log(`  ${done}/${parts} parts`);
          next();
        });
        worker.on('error', reject);
        worker.on('exit', () => resolve());
        next();
      });
    }),
  );
  let bytes = 0;
  for (let part = 0; part < parts; part++)
    bytes += (await fs.stat(path.join(partial, `${partName(part)}.bin`))).size;
  const meta: DistinctMeta = {
    key,
    params,
    start,
    createdAt: new Date().toISOString(),
    parts,
    bytes,
    official: { did: didOf(params.seed, OFFICIAL_INDEX), handle: OFFICIAL_HANDLE },
    expected: plan.expected,
    planted: plan.at.size,
    earlyLikes: plan.early,
    generation: { ms: performance.now() - started, workers },
  };
  await fs.writeFile(path.join(partial, 'meta.json'), JSON.stringify(meta));
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rename(partial, dir);
  return meta;
}

/** The cached stream for the current parameters, generated first when missing or too old. */
export async function loadDistinctStream(
  log: (line: string) => void = () => undefined,
): Promise<DistinctMeta> {
  const params = distinctParams();
  const key = streamKey(params);
  const maxAgeMs = Number(process.env.BENCH_DISTINCT_MAX_AGE_HOURS ?? 48) * 3_600_000;
  try {
    const meta = JSON.parse(
      await fs.readFile(path.join(streamDir(key), 'meta.json'), 'utf8'),
    ) as DistinctMeta;
    if (Date.now() - Date.parse(meta.createdAt) < maxAgeMs) return meta;
    log(`the distinct stream ${key} is older than ${maxAgeMs / 3_600_000} h: made again`);
  } catch {
    // not generated yet
  }
  // Streams are gigabytes: those too old to be read again go.
  await pruneOld(key, maxAgeMs);
  return generate(params, key, log);
}

async function pruneOld(keep: string, maxAgeMs: number): Promise<void> {
  const root = cacheRoot();
  const entries = await fs.readdir(root).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith('distinct-') || entry.includes('.partial-') || entry === `distinct-${keep}`)
      continue;
    const made = await fs.stat(path.join(root, entry, 'meta.json')).catch(() => null);
    if (!made || Date.now() - made.mtimeMs > maxAgeMs)
      await fs.rm(path.join(root, entry), { recursive: true, force: true });
  }
}
