import { cpuMicros } from './cpu-time';
import { load, type LoadResult } from './load';
import { median, ratio } from './stats';

export type Interleaved = {
  /** Median over rounds of subject ÷ the mean of the bare rounds just before and just after it. */
  ratio: number;
  targetRps: number;
  bareRps: number;
  targetP50: number;
  targetP99: number;
  /**
   * With `pids`: the server's CPU time (user + system) per answered request, µs, medians of the rounds, and the
   * median over rounds of the bare process's ÷ the subject's (a figure the machine's other load moves less).
   */
  cpu?: { targetMicros: number; bareMicros: number; ratio: number };
};

/**
 * Issue 23's method: bare, subject, bare, subject, …, bare (`rounds` subject rounds, each between two bare ones),
 * so the subject is under load most of the time, as a busy server is, and drift on a shared machine hits both
 * alike. Each round's ratio is the subject over the mean of the bare rounds around it; medians of the rounds.
 */
export async function interleaved(
  target: string,
  bare: string,
  options: {
    rounds: number;
    seconds: number;
    headers?: Record<string, string>;
    connections?: number;
    /** The server processes behind `target` and `bare`, to measure their CPU time per request. */
    pids?: { target: number; bare: number };
  },
): Promise<Interleaved> {
  const headers = options.headers ?? {};
  const connections = options.connections ?? 10;
  const perRequest = new Map<LoadResult, number>();
  const run = async (url: string, pid?: number) => {
    const before = pid ? await cpuMicros(pid) : 0;
    const result = await load(url, options.seconds, connections, headers);
    if (pid) perRequest.set(result, ((await cpuMicros(pid)) - before) / Math.max(1, result.requests));
    if (result.non2xx || result.errors)
      throw new Error(`non-2xx answers or errors during the benchmark of ${url}`);
    return result;
  };
  // Warm-up: caches filled, JIT warm, connections open.
  await load(target, 1, connections, headers);
  const bares: LoadResult[] = [await run(bare, options.pids?.bare)];
  const targets: LoadResult[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const t = await run(target, options.pids?.target);
    const after = await run(bare, options.pids?.bare);
    const before = bares[bares.length - 1] ?? after;
    bares.push(after);
    targets.push(t);
    ratios.push(ratio(t.requestsPerSecond, (before.requestsPerSecond + after.requestsPerSecond) / 2));
    const cpuOf = (r: LoadResult) => perRequest.get(r) ?? Number.NaN;
    cpuRatios.push(ratio((cpuOf(before) + cpuOf(after)) / 2, cpuOf(t)));
  }
  const cpu = options.pids
    ? {
        targetMicros: median(targets.map((t) => perRequest.get(t) ?? Number.NaN)),
        bareMicros: median(bares.map((b) => perRequest.get(b) ?? Number.NaN)),
        ratio: median(cpuRatios),
      }
    : undefined;
  return {
    ...(cpu ? { cpu } : {}),
    ratio: median(ratios),
    targetRps: median(targets.map((t) => t.requestsPerSecond)),
    bareRps: median(bares.map((b) => b.requestsPerSecond)),
    targetP50: median(targets.map((t) => t.p50)),
    targetP99: median(targets.map((t) => t.p99)),
  };
}
