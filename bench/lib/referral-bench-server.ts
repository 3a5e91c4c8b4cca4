// The real server with two members linked through the simulated X (over HTTP, as a browser would), for
// bench/run.ts: latency of POST /referrals/apply and GET /me/account against a bare route of the same instance.
import { randomBytes, randomUUID } from 'node:crypto';
import { buildApp } from '../../apps/server/src/composition/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import { openConfiguredDatabase } from '../../apps/server/src/db/open-from-config';

const port = Number(process.env.PORT);
const origin = `http://127.0.0.1:${port}`;
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'warn',
  PUBLIC_ORIGIN: origin,
  TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
  // The benchmark is one browser hammering one route: lift the per-browser limits out of the way.
  RATE_LIMIT_APPLY_PER_MINUTE: '100000000',
  RATE_LIMIT_READ_PER_MINUTE: '100000000',
});
const database = await openConfiguredDatabase(config);
await migrateToLatest(database.db);
const app = await buildApp({ config, database });
app.get('/bench/bare', async () => ({ ok: true, data: { hello: 'world' }, error: null }));
await app.listen({ port, host: '127.0.0.1' });

/** Links a new browser to `handle` through the simulated sign-in page; returns its request headers. */
async function link(handle: string, accountAgeDays: number): Promise<Record<string, string>> {
  const id = randomUUID();
  const tokenAnswer = (await (
    await fetch(`${origin}/csrf-token`, { headers: { 'x-user-id': id } })
  ).json()) as { data: { csrfToken: string } };
  const headers = {
    'x-user-id': id,
    'x-csrf-token': tokenAnswer.data.csrfToken,
    'content-type': 'application/json',
  };
  const started = await fetch(`${origin}/auth/twitter/start`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ redirectAfter: `${origin}/auth/callback` }),
  });
  // The callback must come from the browser that started: it carries the nonce cookie set here.
  const cookie = started.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const start = (await started.json()) as { data: { authorizeUrl: string } };
  const authorize = new URL(start.data.authorizeUrl);
  const form = new URLSearchParams(authorize.searchParams);
  form.set('handle', handle);
  form.set('decision', 'allow');
  form.set('account_age_days', String(accountAgeDays));
  const signedIn = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  const back = await fetch(signedIn.headers.get('location') ?? '', {
    redirect: 'manual',
    headers: { cookie },
  });
  if (back.status !== 302 || back.headers.get('location')?.includes('error='))
    throw new Error('linking failed');
  return headers;
}

await link('bench_referrer', 400);
// One day old: every apply runs every rule (lookup, locks, chain, reserved list) and is refused by the last one,
// the anti-bot gate, so the measured path is the whole rule chain and never runs out of referees.
const referee = await link('bench_referee', 1);
process.send?.({ ready: true, referee });
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
