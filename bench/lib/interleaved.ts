import { load, type LoadResult } from './load';
import { median, ratio } from './stats';

export type Interleaved = {
  /** Median over rounds of subject ÷ the mean of the bare rounds just before and just after it. */
  ratio: number;
  targetRps: number;
  bareRps: number;
  targetP50: number;
  targetP99: number;
};

/**
 * Issue 23's method: bare, subject, bare, subject, …, bare (`rounds` subject rounds, each between two bare ones),
 * so the subject is under load most of the time, as a busy server is, and drift on a shared machine hits both
 * alike. Each round's ratio is the subject over the mean of the bare rounds around it; medians of the rounds.
 */
export async function interleaved(
  target: string,
  bare: string,
  options: { rounds: number; seconds: number; headers?: Record<string, string>; connections?: number },
): Promise<Interleaved> {
  const headers = options.headers ?? {};
  const connections = options.connections ?? 10;
  const run = async (url: string) => {
    const result = await load(url, options.seconds, connections, headers);
    if (result.non2xx || result.errors)
      throw new Error(`non-2xx answers or errors during the benchmark of ${url}`);
    return result;
  };
  // Warm-up: caches filled, JIT warm, connections open.
  await load(target, 1, connections, headers);
  const bares: LoadResult[] = [await run(bare)];
  const targets: LoadResult[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const t = await run(target);
    const after = await run(bare);
    const before = bares[bares.length - 1] ?? after;
    bares.push(after);
    targets.push(t);
    ratios.push(ratio(t.requestsPerSecond, (before.requestsPerSecond + after.requestsPerSecond) / 2));
  }
  return {
    ratio: median(ratios),
    targetRps: median(targets.map((t) => t.requestsPerSecond)),
    bareRps: median(bares.map((b) => b.requestsPerSecond)),
    targetP50: median(targets.map((t) => t.p50)),
    targetP99: median(targets.map((t) => t.p99)),
  };
}
