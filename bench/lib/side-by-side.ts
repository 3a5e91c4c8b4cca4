import { load, type LoadResult } from './load';
import { median, ratio } from './stats';

/**
 * Measures `target` against `bare` on the same server, alternating the order each round so drift on a shared
 * machine hits both alike. Returns medians and the median of the per-round ratios.
 */
export async function sideBySide(
  target: string,
  bare: string,
  options: { rounds: number; seconds: number; headers?: Record<string, string> },
) {
  const headers = options.headers ?? {};
  await load(bare, 1, 10, headers);
  await load(target, 1, 10, headers);
  const ratios: number[] = [];
  const targets: LoadResult[] = [];
  const bares: LoadResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const bareFirst = round % 2 === 0;
    const b1 = bareFirst ? await load(bare, options.seconds, 10, headers) : undefined;
    const t = await load(target, options.seconds, 10, headers);
    const b = b1 ?? (await load(bare, options.seconds, 10, headers));
    if (t.non2xx || b.non2xx) throw new Error(`non-2xx answers during the benchmark of ${target}`);
    targets.push(t);
    bares.push(b);
    ratios.push(ratio(t.requestsPerSecond, b.requestsPerSecond));
  }
  return {
    ratio: median(ratios),
    targetRps: median(targets.map((t) => t.requestsPerSecond)),
    bareRps: median(bares.map((b) => b.requestsPerSecond)),
    targetP50: median(targets.map((t) => t.p50)),
    targetP99: median(targets.map((t) => t.p99)),
    /** The bare route's own p99 in the same rounds: what the machine's load alone does to a p99. */
    bareP99: median(bares.map((b) => b.p99)),
  };
}
