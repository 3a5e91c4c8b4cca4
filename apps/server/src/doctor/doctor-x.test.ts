import { World } from '@manaboard/x-sim';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config';
import { seedProgrammeRules } from '../modules/programme/programme-seed';
import { officialHandleRule } from '../integrations/official-handles';
import { SIM_APP, startSimulatedX } from '../test/simulated-x';
import { openTestDatabase, testDatabaseKinds } from '../test/test-database';
import { formatDoctor, runDoctor } from './doctor';
import { key, problems } from './doctor.test-support';

describe('the deployment check on X', () => {
  it.each(testDatabaseKinds())(
    "resolves X's official accounts to the user ids it keeps, on the simulated X standing in for X (%s)",
    async (kind) => {
      const world = new World(Date.now());
      const hq = world.createUser({ username: 'ManaboardHQ', official: true });
      const sim = await startSimulatedX(world);
      const database = await openTestDatabase(kind);
      try {
        const loaded = loadConfig({
          NODE_ENV: 'test',
          X_CLIENT_ID: SIM_APP.clientId,
          X_CLIENT_SECRET: SIM_APP.clientSecret,
          X_BEARER_TOKEN: SIM_APP.bearerToken,
          TOKEN_ENCRYPTION_KEY: key(),
          OFFICIAL_ACCOUNTS: 'ManaboardHQ,NobodyHere',
        });
        const config = { ...loaded, x: { ...loaded.x, apiBaseUrl: sim.address } };
        await seedProgrammeRules(database.db, {
          demo: false,
          officialAccounts: config.programme.officialAccounts,
          handles: officialHandleRule('x'),
        });
        const lines = await runDoctor({ config, db: database.db });
        expect(lines).toContainEqual({
          ok: true,
          text: `official account ManaboardHQ is ${hq.id} (kept by this id from now on)`,
        });
        expect(problems(lines)).toEqual([
          "official account NobodyHere: nobody answers to this handle; check the rules' official accounts",
        ]);
        // At start the server makes no paid user read on X.
        expect(
          (await runDoctor({ config, db: database.db, resolveOfficials: false })).map((l) => l.text),
        ).not.toContainEqual(expect.stringMatching(/^official account /));
      } finally {
        await database.close();
        await sim.close();
      }
    },
    60_000,
  );

  it('has nothing to reach on the simulated X, and asks for the token key with real X', async () => {
    const demo = await runDoctor({ config: loadConfig({ NODE_ENV: 'test' }) });
    expect(problems(demo)).toEqual([]);
    expect(formatDoctor(demo)).toMatch(/^ok {7}the simulated X's demo: no network to reach$/m);
    const real = loadConfig({
      NODE_ENV: 'test',
      X_CLIENT_ID: 'id',
      X_CLIENT_SECRET: 'secret',
      X_BEARER_TOKEN: 'bearer',
    });
    expect(problems(await runDoctor({ config: real }))).toEqual([
      expect.stringMatching(/^TOKEN_ENCRYPTION_KEY is not set/),
    ]);
  });
});
