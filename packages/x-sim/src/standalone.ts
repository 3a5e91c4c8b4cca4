// `npm run x-sim`: the simulated X on its own port (X_SIM_PORT, default 4100; X_SIM_HOST, default 127.0.0.1),
// with the demo world (X_SIM_SEED) and the demo app whose callbacks are X_SIM_REDIRECT_URIS (comma-separated).
import { createXSimServer, standaloneClient } from './server';

const port = Number(process.env.X_SIM_PORT ?? 4100);
const host = process.env.X_SIM_HOST ?? '127.0.0.1';
const seed = Number(process.env.X_SIM_SEED ?? 42);
const redirectUris = (process.env.X_SIM_REDIRECT_URIS ?? 'http://localhost:3000/auth/twitter/callback')
  .split(',')
  .map((uri) => uri.trim())
  .filter(Boolean);

const { app, world } = await createXSimServer({ seed, redirectUris });
await app.listen({ port, host });
const base = `http://${host}:${port}`;
console.info(`Simulated X at ${base} (${world.allUsers().length} users, ${world.postsByTime().length} posts)
  authorize:  ${base}/i/oauth2/authorize
  token:      ${base}/2/oauth2/token
  revoke:     ${base}/2/oauth2/revoke
  API base:   ${base}  (e.g. ${base}/2/tweets/search/recent)
  client id:  ${standaloneClient.clientId}
  secret:     ${standaloneClient.clientSecret}
  app bearer: ${standaloneClient.appBearerToken}
  callbacks:  ${redirectUris.join(', ')}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
