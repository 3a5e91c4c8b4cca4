import { median, ratio } from './stats';

export type Request = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The status every answer must have (a refused apply is a 400 by design). */
  status?: number;
};

const CLIENTS = 10;

/** The value at quantile `q` of sorted samples. */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/**
 * Latency of one request under load: CLIENTS clients each send it back to back for `seconds`, every answer timed
 * with performance.now() (autocannon reports whole milliseconds, too coarse for a sub-millisecond bare route).
 */
async function latency(request: Request, seconds: number) {
  const expected = request.status ?? 200;
  const until = performance.now() + seconds * 1000;
  const samples: number[] = [];
  const client = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      const response = await fetch(request.url, {
        method: request.method ?? 'GET',
        headers: request.headers ?? {},
        ...(request.body ? { body: request.body } : {}),
      });
      await response.arrayBuffer();
      samples.push(performance.now() - started);
      if (response.status !== expected)
        throw new Error(`${request.url} answered ${response.status}, not ${expected}`);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  samples.sort((a, b) => a - b);
  return { p50: quantile(samples, 0.5), p99: quantile(samples, 0.99) };
}

/**
 * p50 and p99 latency of `target` and of `bare` on the same server, alternating the order each round; returns
 * the medians and the median per-round ratios target/bare.
 */
export async function latencyVsBare(
  target: Request,
  bare: Request,
  options: { rounds: number; seconds: number },
) {
  await latency(bare, 1);
  await latency(target, 1);
  const rows: Array<{ t: { p50: number; p99: number }; b: { p50: number; p99: number } }> = [];
  for (let round = 0; round < options.rounds; round++) {
    const bareFirst = round % 2 === 0;
    const first = bareFirst ? await latency(bare, options.seconds) : undefined;
    const t = await latency(target, options.seconds);
    const b = first ?? (await latency(bare, options.seconds));
    rows.push({ t, b });
  }
  return {
    p50: median(rows.map((r) => r.t.p50)),
    p99: median(rows.map((r) => r.t.p99)),
    p50Ratio: median(rows.map((r) => ratio(r.t.p50, r.b.p50))),
    p99Ratio: median(rows.map((r) => ratio(r.t.p99, r.b.p99))),
  };
}
