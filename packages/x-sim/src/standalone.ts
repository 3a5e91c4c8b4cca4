// `npm run x-sim`: the simulated X on its own port (X_SIM_PORT, default 4100; X_SIM_HOST, default 127.0.0.1),
// with the demo world (X_SIM_SEED) and the demo app whose callbacks are X_SIM_REDIRECT_URIS (comma-separated).
import { loadStandaloneConfig, StandaloneConfigError } from './config/standalone-config';
import { createXSimServer, standaloneClient } from './server';

let config;
try {
  config = loadStandaloneConfig();
} catch (error) {
  if (!(error instanceof StandaloneConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const { port, host, seed, redirectUris } = config;

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
