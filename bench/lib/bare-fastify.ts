// The yardstick of bench/as-users-get-it.ts: a separate, bare Fastify process on the same Node answering a small
// JSON (no logger, no plugins, no hooks), listening on PORT.
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', async () => ({ success: true, data: { hello: 'world' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ ready: true });
process.once('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
