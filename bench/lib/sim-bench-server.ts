// The simulated X alone (limits off) with a large world and a bare route on the same instance, for
// bench/run.ts: how many search pages and lookup batches per second it serves.
import Fastify from 'fastify';
import { buildWorld, xSimPlugin } from '../../packages/x-sim/src/index';

const members = Number(process.env.SIM_MEMBERS ?? 10_000);
const started = performance.now();
const world = buildWorld({ seed: 5, now: Date.now(), members, days: 7, postsPerMember: 10 });
const buildMs = performance.now() - started;
const app = Fastify({ logger: false });
await app.register(xSimPlugin, {
  world,
  appBearerToken: 'bench',
  clients: [],
  rateLimitScale: Infinity,
});
app.get('/bench/bare', async () => ({ data: [{ id: '1', text: 'hello' }] }));
const address = await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
const ids = world
  .postsByTime()
  .slice(-100)
  .map((p) => p.id);
process.send?.({ ready: true, address, posts: world.postsByTime().length, buildMs, ids });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
