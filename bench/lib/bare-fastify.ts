// The yardstick of bench/as-users-get-it.ts: a separate, bare Fastify process on the same Node answering a small
// JSON (no logger, no plugins, no hooks), listening on PORT.
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', async () => ({ success: true, data: { hello: 'world' } }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ ready: true });
// Nothing to clean up: exit at once (closing would wait for the load generator's keep-alive sockets).
process.once('SIGTERM', () => process.exit(0));
