import autocannon from 'autocannon';
import { median, ratio } from './stats';

export type Request = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The status every answer must have (a refused apply is a 400 by design). */
  status?: number;
};

async function latency(request: Request, seconds: number) {
  const expected = request.status ?? 200;
  const result = await autocannon({
    url: request.url,
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    ...(request.body ? { body: request.body } : {}),
    connections: 10,
    duration: seconds,
  });
  const stats = result.statusCodeStats ?? {};
  const answered = Object.values(stats).reduce((sum, s) => sum + (s.count ?? 0), 0);
  const right = stats[`${expected}`]?.count ?? 0;
  if (answered === 0 || right !== answered || result.errors > 0)
    throw new Error(`answers of ${request.url} were not all ${expected}: ${JSON.stringify(stats)}`);
  return { p50: result.latency.p50, p99: result.latency.p99 };
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
