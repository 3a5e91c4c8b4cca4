// One bare Fastify process with the same tiny JSON route as bench-server's `/bench/bare`: the yardstick of the
// cluster load figure (a server that does nothing but answer, on the same machine and under the same load).
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bench/bare', async () => ({ success: true, data: { hello: 'world' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ ready: true });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
