// `npx tsx bench/run.ts cluster`: 200 connections on the public reads, spread over two API processes (and two
// workers) on PostgreSQL and Redis, against one bare Fastify process under the same load on the same machine.
import autocannon from 'autocannon';
import { clusterWorld, startCluster } from '../apps/server/src/test/cluster';
import { SIM_APP, startSimulatedX } from '../apps/server/src/test/simulated-x';
import { keepNoBodies } from './lib/load';
import { startBenchServer } from './lib/spawn-server';
import { benchRounds, fmt, median, ratio } from './lib/stats';

const CONNECTIONS = 200;
const MEMBERS = 300;
/** The public reads a visitor's page makes, in turn on every connection. */
const PUBLIC_READS = [
  '/api/mana?limit=20',
  '/api/posts?limit=20',
  '/api/daily-post-limit',
  '/api/public/announcements?page=1&limit=10',
];

type Figure = { rps: number; p50: number; p99: number; errors: number; requests: number };

/** autocannon over one or several origins (connections are spread over them in turn). */
async function drive(urls: string[], paths: string[], seconds: number): Promise<Figure> {
  const result = await autocannon({
    // autocannon takes a list of URLs and spreads its connections over them; its types name only one.
    url: urls as unknown as string,
    connections: CONNECTIONS,
    duration: seconds,
    requests: paths.map((path) => ({ method: 'GET', path })),
    setupClient: keepNoBodies,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    requests: result.requests.total,
  };
}

export async function clusterBench(): Promise<void> {
  const seconds = Number(process.env.BENCH_CLUSTER_SECONDS ?? 60);
  const rounds = benchRounds();
  const serverUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const sim = await startSimulatedX(clusterWorld(Date.now(), MEMBERS), { rateLimitScale: Infinity });
  const bare = await startBenchServer({}, 'bench/lib/bare-server.ts');
  const cluster = await startCluster({
    serverUrl,
    redisUrl,
    x: { address: sim.address, ...SIM_APP },
    apis: 2,
    workers: 2,
    env: { WORKER_INTERVAL_SECONDS: '10', LOG_LEVEL: 'warn' },
  });
  try {
    // The board is filled by the workers, as in production, before the load starts.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const body = (await (await fetch(`${cluster.apis[0]?.origin}/api/mana?limit=1`)).json()) as {
        data?: { total?: number };
      };
      if (body.data?.total === MEMBERS) break;
      if (Date.now() > deadline) throw new Error('the workers did not fill the board within 120 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    const origins = cluster.apis.map((api) => api.origin);
    const bareRuns: Figure[] = [];
    const clusterRuns: Figure[] = [];
    for (let round = 0; round < rounds; round++) {
      bareRuns.push(await drive([bare.origin], ['/bench/bare'], seconds));
      clusterRuns.push(await drive(origins, PUBLIC_READS, seconds));
    }
    const m = (runs: Figure[], key: keyof Figure) => median(runs.map((r) => r[key]));
    const errors = clusterRuns.reduce((sum, r) => sum + r.errors, 0);
    const requests = clusterRuns.reduce((sum, r) => sum + r.requests, 0);
    console.log(
      `cluster, public reads over 2 API processes (+2 workers, PostgreSQL, Redis), ${CONNECTIONS} connections, ` +
        `${rounds}×${seconds}s: p99 ${fmt(m(clusterRuns, 'p99'), 0)} ms (${fmt(ratio(m(clusterRuns, 'p99'), m(bareRuns, 'p99')))}× ` +
        `bare's ${fmt(m(bareRuns, 'p99'), 0)} ms; goal < 100 ms), p50 ${fmt(m(clusterRuns, 'p50'), 0)} ms, ` +
        `${fmt(m(clusterRuns, 'rps'), 0)} req/s (${fmt(ratio(m(clusterRuns, 'rps'), m(bareRuns, 'rps')))}× one bare Fastify process's ` +
        `${fmt(m(bareRuns, 'rps'), 0)}), errors ${errors} of ${requests} requests`,
    );
  } finally {
    await cluster.stop();
    await bare.stop();
    await sim.close();
  }
}
