import type { SeedClient } from '@atproto/dev-env';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { testEnv } from '../config/test-env';
import { seedProgrammeRules } from '../modules/programme/programme-seed';
import { officialHandleRule } from '../integrations/official-handles';
import {
  atprotoNetworkSkipReason,
  startAtprotoNetwork,
  type LocalAtprotoNetwork,
} from '../test/atproto-network';
import { runScript } from '../test/cli-process';
import { createScratchSchema } from '../test/postgres-schema';
import { buildTestApp } from '../test/test-app';
import { openTestDatabase, testDatabaseKinds } from '../test/test-database';
import { runDoctor } from './doctor';
import { key, problems } from './doctor.test-support';

type Did = `did:${string}:${string}`;

/** `npm run doctor` and the start-up check, against a real local AT Protocol network. */
describe.skipIf(atprotoNetworkSkipReason() !== null)('the deployment check on Bluesky', () => {
  let net: LocalAtprotoNetwork;
  let seed: SeedClient;
  let official: Did;
  const env = () => ({
    NODE_ENV: 'test',
    SOCIAL_NETWORK: 'bluesky',
    BLUESKY_APPVIEW_URL: net.appviewUrl,
    BLUESKY_PLC_URL: net.plcUrl,
    BLUESKY_RELAY_URL: net.streamUrl,
    BLUESKY_HANDLE_RESOLVER_URL: net.pdsUrl,
    BLUESKY_ALLOW_HTTP: 'true',
    OFFICIAL_ACCOUNTS: 'manahq.test',
    TOKEN_ENCRYPTION_KEY: key(),
  });

  beforeAll(async () => {
    net = await startAtprotoNetwork();
    seed = net.network.getSeedClient();
    official = (
      await seed.createAccount('manahq', {
        handle: 'manahq.test',
        email: 'hq@example.test',
        password: 'hq-pass',
      })
    ).did as Did;
    await net.network.processAll();
  }, 120_000);
  afterAll(async () => net?.close());

  it.each(testDatabaseKinds())(
    'finds nothing wrong with a deployment as it should be (%s)',
    async (kind) => {
      const database = await openTestDatabase(kind);
      try {
        const config = loadConfig(env());
        await seedProgrammeRules(database.db, {
          demo: false,
          officialAccounts: config.programme.officialAccounts,
          handles: officialHandleRule('bluesky'),
        });
        const lines = await runDoctor({ config, db: database.db });
        expect(problems(lines)).toEqual([]);
        expect(lines.map((l) => l.text)).toEqual(
          expect.arrayContaining([
            'TOKEN_ENCRYPTION_KEY is set',
            `relay ${net.streamUrl} streams`,
            `AppView ${new URL(net.appviewUrl).origin} answers`,
            `PLC directory ${new URL(net.plcUrl).origin} answers`,
            `official account manahq.test is ${official} (kept by this id from now on)`,
          ]),
        );
        // Kept: the next check compares with it.
        expect(problems(await runDoctor({ config, db: database.db }))).toEqual([]);
      } finally {
        await database.close();
      }
    },
    60_000,
  );

  it('says, one line each, what does not answer and what is not set', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const config = loadConfig({
        ...env(),
        TOKEN_ENCRYPTION_KEY: '',
        OFFICIAL_ACCOUNTS: '',
        BLUESKY_RELAY_URL: 'ws://127.0.0.1:1',
        BLUESKY_APPVIEW_URL: 'http://127.0.0.1:1',
      });
      const found = problems(await runDoctor({ config, db: database.db }));
      expect(found).toEqual([
        expect.stringMatching(/^TOKEN_ENCRYPTION_KEY is not set: .*openssl rand -base64 32/),
        expect.stringMatching(/^official accounts: OFFICIAL_ACCOUNTS is not set\. .*set OFFICIAL_ACCOUNTS=/),
        expect.stringMatching(/^relay ws:\/\/127\.0\.0\.1:1: .*check BLUESKY_RELAY_URL$/),
        expect.stringMatching(
          /^AppView http:\/\/127\.0\.0\.1:1: did not answer .*check BLUESKY_APPVIEW_URL$/,
        ),
      ]);
      for (const line of found) expect(line).not.toMatch(/\n/);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('flags an official handle that has changed hands, and keeps following the account it named', async () => {
    const database = await openTestDatabase('pglite');
    try {
      const config = loadConfig(env());
      await seedProgrammeRules(database.db, { demo: false, officialAccounts: ['hands.test'] });
      const first = (
        await seed.createAccount('hands', { handle: 'hands.test', email: 'h@example.test', password: 'p' })
      ).did;
      expect(
        problems(
          await runDoctor({
            config: { ...config, programme: { officialAccounts: ['hands.test'] } },
            db: database.db,
          }),
        ),
      ).toEqual([]);
      await seed.updateHandle(first, 'hands-renamed.test');
      const stranger = (
        await seed.createAccount('stranger', { handle: 'hands.test', email: 's@example.test', password: 'p' })
      ).did;
      const found = problems(
        await runDoctor({
          config: { ...config, programme: { officialAccounts: ['hands.test'] } },
          db: database.db,
        }),
      );
      expect(found).toEqual([
        `official account hands.test now resolves to ${stranger}, not to ${first}, the account the programme has followed since ${new Date().toISOString().slice(0, 10)}: the handle changed hands or was given up, and the programme still follows ${first}; if that account took a new handle, name the new one in the rules`,
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);

  it('checks the client metadata and JWKS from an https origin as authorization servers fetch them', async () => {
    const origin = 'https://manaboard.example';
    const test = await buildTestApp('pglite', { ...env(), PUBLIC_ORIGIN: origin });
    try {
      const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
      // The public origin, reached at this app (as a proxy in front would).
      const viaOrigin: typeof fetch = (input, init) =>
        fetch(String(input instanceof Request ? input.url : input).replace(origin, address), init);
      const lines = await runDoctor({ config: test.config, fetch: viaOrigin });
      expect(lines.map((l) => l.text)).toEqual(
        expect.arrayContaining([
          `client metadata ${origin}/oauth/client-metadata.json answers`,
          `JWKS ${origin}/oauth/jwks.json answers with 1 key(s)`,
        ]),
      );
      const broken = await runDoctor({
        config: test.config,
        fetch: (input, init) => fetch(String(input).replace(origin, 'http://127.0.0.1:1'), init),
      });
      expect(problems(broken)).toEqual([
        expect.stringMatching(
          /^client metadata https:\/\/manaboard\.example\/oauth\/client-metadata\.json did not answer .*PUBLIC_ORIGIN must reach this server over https$/,
        ),
      ]);
    } finally {
      await test.close();
    }
  }, 60_000);

  it.skipIf(!testEnv.databaseUrl)(
    'npm run doctor prints one line per check and exits 1 on a problem, 0 without',
    async () => {
      const schema = await createScratchSchema(testEnv.databaseUrl ?? '', 'mb-doctor');
      try {
        const vars = { ...process.env, ...env(), DATABASE_URL: schema.url, LOG_LEVEL: 'silent' };
        const bad = await runScript('src/cli/doctor.ts', [], { ...vars, TOKEN_ENCRYPTION_KEY: '' });
        expect(bad.code).toBe(1);
        expect(bad.stdout.split('\n')[0]).toMatch(/^PROBLEM {2}TOKEN_ENCRYPTION_KEY is not set/);
        expect(bad.stdout + bad.stderr).not.toMatch(/^\s+at /m);
        const good = await runScript('src/cli/doctor.ts', [], vars);
        expect(good.stdout).toMatch(/^ok {7}official account manahq\.test is did:plc:/m);
        expect(good.code).toBe(0);
        expect(good.stdout).not.toMatch(/PROBLEM/);
      } finally {
        await schema.drop();
      }
    },
    120_000,
  );
});
