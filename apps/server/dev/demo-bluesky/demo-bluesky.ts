import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { TestNetwork } from '@atproto/dev-env';
import { paths } from '../../src/config/config';
import { demoBlueskyEnv, setDevEnvRedis } from '../../src/config/demo-bluesky-env';
import { prepareDevEnvPorts } from '../../src/test/dev-env-ports';
import { freePort } from '../../src/test/free-port';
import { demoPreflight } from './demo-preflight';
import { DemoWorld, type DemoAccount } from './demo-world';
import { childProcessEnv } from '../../src/config/child-env';
import { dropSchemasNamedAfter, holdingSchemaDropLock } from '../../src/db/schema-drop-lock';

/**
 * `npm run demo:bluesky` (docs/networks.md, "Try it locally"): a real local AT Protocol network (PLC directory, PDS
 * with its sign-in pages, AppView; @atproto/dev-env) on the PostgreSQL and Redis it is given, a living world on it
 * (an official account, members posting with #ManaBoard, liking, reposting, replying), and Manaboard against it
 * (`npm start` with SOCIAL_NETWORK=bluesky and every BLUESKY_* variable pointing at the network). Ctrl+C stops
 * everything and drops the demo's schemas.
 */
const env = demoBlueskyEnv();
const say = (line: string) => console.info(line);
const letters = () =>
  randomBytes(5)
    .toString('hex')
    .replace(/[0-9]/g, (digit) => String.fromCharCode(97 + Number(digit)));

async function main(): Promise<number> {
  const problems = await demoPreflight(env);
  if (problems.length > 0) {
    for (const problem of problems) console.error(problem);
    return 1;
  }
  // Letters and underscores only: the network derives more schema names from it (NOTES).
  const schema = `mb_demo_bsky_${letters()}`;
  const appSchema = `${schema}_app`;
  setDevEnvRedis(env.redisUrl);
  say('Starting a local AT Protocol network (PLC directory, PDS, AppView)…');
  const { TestNetwork } = await import('@atproto/dev-env');
  let network: TestNetwork | undefined;
  let server: ChildProcess | undefined;
  let world: DemoWorld | undefined;
  let stopping: Promise<number> | undefined;
  const stop = (code: number) =>
    (stopping ??= (async () => {
      say('Stopping the world, the app and the network…');
      await world?.stop();
      if (server && server.exitCode === null) {
        const exited = new Promise((resolve) => server?.once('exit', resolve));
        server.kill('SIGTERM');
        await exited;
      }
      await network?.close().catch(() => undefined);
      await dropSchemas(schema);
      say('Stopped; the demo schemas are dropped.');
      return code;
    })());
  // `on`, not `once`: Ctrl+C can reach this process more than once (from the terminal's process group, and relayed
  // by the npm processes above it), and a second SIGINT with no listener would kill it mid-stop. It runs as
  // `node --import tsx`, not under the tsx command: that relays a signal to its child and kills it outright when
  // the child does not acknowledge within 60 ms, which a busy machine missed (the stop never ran, the schemas
  // stayed).
  const onSignal = () => void stop(0).then((code) => process.exit(code));
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const appviewPort = await freePort();
    // Its services migrate their schemas under the shared drop lock (db/schema-drop-lock.ts says why), after this
    // process has set up dev-env's port reservations (test/dev-env-ports.ts says why).
    network = await withClient(async (client) => {
      await prepareDevEnvPorts(client);
      return holdingSchemaDropLock(client, 'shared', () =>
        TestNetwork.create({
          dbPostgresUrl: env.databaseUrl,
          dbPostgresSchema: schema,
          // The AppView names images by its public URL (dev-env's default is a placeholder host): its own
          // address, so avatars load in the browser.
          bsky: { port: appviewPort, publicUrl: `http://localhost:${appviewPort}` },
        }),
      );
    });
    const appviewUrl = network.bsky.url;
    world = await DemoWorld.create(network.getSeedClient());
    world.onError = (error) =>
      say(`demo: an action failed (${error instanceof Error ? error.message : String(error)})`);
    await network.processAll();
    await createSchema(appSchema);
    const origin = `http://localhost:${env.port}`;
    server = startApp({
      SOCIAL_NETWORK: 'bluesky',
      DATABASE_URL: schemaUrl(appSchema),
      REDIS_URL: env.redisUrl,
      PORT: String(env.port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: origin,
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64url'),
      BLUESKY_APPVIEW_URL: appviewUrl,
      BLUESKY_PLC_URL: network.plc.url,
      BLUESKY_RELAY_URL: network.pds.url.replace(/^http/, 'ws'),
      BLUESKY_HANDLE_RESOLVER_URL: network.pds.url,
      BLUESKY_ALLOW_HTTP: 'true',
      IMAGE_ORIGINS: new URL(appviewUrl).origin,
      OFFICIAL_ACCOUNTS: world.official.handle,
      ADMIN_ACCOUNTS: world.official.did,
      // Totals and refresh every 15 s, so the board moves while you watch (the default is each minute).
      WORKER_INTERVAL_SECONDS: '15',
      LOG_LEVEL: env.logLevel,
      // A demo's console shows the accounts, not every request a busy laptop serves in more than half a second.
      LOG_SLOW_MS: '5000',
    });
    server.once('exit', (code) => {
      if (!stopping) {
        console.error(`demo: the app stopped (exit ${code}); stopping the network`);
        void stop(1).then((c) => process.exit(c));
      }
    });
    await waitReady(origin, server);
    // The worker reads the stream from its live end: the world starts talking once it listens.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await world.opening();
    world.start(env.actionEverySeconds);
    printAccounts(origin, world, { pds: network.pds.url, appview: appviewUrl, plc: network.plc.url });
    return await new Promise<number>(() => undefined); // runs until Ctrl+C
  } catch (error) {
    console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
    return stop(1);
  }
}

function printAccounts(
  origin: string,
  world: DemoWorld,
  services: { pds: string; appview: string; plc: string },
) {
  const row = (a: DemoAccount) => `    ${a.handle.padEnd(18)} password ${a.password}`;
  say('');
  say(`Manaboard on a local Bluesky network: open ${origin}`);
  say('');
  say('  Link an account from the card (type its handle; the PDS asks for the password, then for consent):');
  for (const a of world.newcomers) say(row(a));
  say('  Members who post with #ManaBoard and react to each other a few times a minute:');
  for (const a of world.members) say(row(a));
  say(
    '  The official account (its posts earn linked members interaction Mana; it is also the console admin):',
  );
  say(row(world.official));
  say('');
  say(`  Local network: PDS ${services.pds}  AppView ${services.appview}  PLC ${services.plc}`);
  say('  Ctrl+C stops the app and the network and drops the demo schemas.');
  say('');
}

function startApp(vars: Record<string, string>): ChildProcess {
  const tsx = path.join(paths.repoRoot, 'node_modules/tsx/dist');
  return spawn(
    process.execPath,
    [
      '--require',
      path.join(tsx, 'preflight.cjs'),
      '--import',
      pathToFileURL(path.join(tsx, 'loader.mjs')).href,
      path.join(paths.repoRoot, 'apps/server/src/main.ts'),
    ],
    { cwd: paths.repoRoot, env: childProcessEnv(vars), stdio: ['ignore', 'inherit', 'inherit'] },
  );
}

async function waitReady(origin: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error('the app did not start (its output is above)');
    const ok = await fetch(`${origin}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the app did not answer ${origin}/readyz within 120 s`);
}

const schemaUrl = (name: string) => {
  const url = new URL(env.databaseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return url.toString();
};

async function withClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: env.databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const createSchema = (name: string) => withClient((c) => c.query(`create schema ${name}`));

/** The demo's schemas: the network names its own after ours (appview_…, bsync_…, ozone_…). */
async function dropSchemas(schema: string): Promise<void> {
  await withClient((client) => dropSchemasNamedAfter(client, schema)).catch((error: unknown) =>
    console.error(`demo: schemas ${schema}* not dropped (${String(error)})`),
  );
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`demo: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
