import { describe, expect, it } from 'vitest';
import { testEnv } from '../../src/config/test-env';
import { runScript } from '../../src/test/cli-process';

const demo = 'dev/demo-bluesky/demo-bluesky.ts';
const closed = { pg: 'postgres://postgres@127.0.0.1:1/none', redis: 'redis://127.0.0.1:1' };

/** `npm run demo:bluesky` without its services: what is missing and how to provide it, exit 1, no stack trace. */
describe('npm run demo:bluesky without PostgreSQL or Redis', () => {
  it('names both, says how to provide them, and exits 1 without a stack trace', async () => {
    const result = await runScript(demo, [], {
      ...process.env,
      DATABASE_URL: closed.pg,
      REDIS_URL: closed.redis,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^PostgreSQL does not answer at 127\.0\.0\.1:1 \(/m);
    expect(result.stderr).toMatch(/set DATABASE_URL=postgres:\/\//);
    expect(result.stderr).toMatch(/^Redis does not answer at 127\.0\.0\.1:1 \(/m);
    expect(result.stderr).toMatch(/set REDIS_URL=redis:\/\//);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stdout).toBe('');
  }, 60_000);

  it.skipIf(!testEnv.databaseUrl)(
    'with PostgreSQL answering, names only Redis',
    async () => {
      const result = await runScript(demo, [], {
        ...process.env,
        DATABASE_URL: testEnv.databaseUrl,
        REDIS_URL: closed.redis,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).not.toMatch(/PostgreSQL/);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^Redis does not answer at 127\.0\.0\.1:1/),
      ]);
    },
    60_000,
  );
});
