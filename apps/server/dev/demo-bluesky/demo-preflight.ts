import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** What the demo cannot start without, in words an operator acts on; null when everything answers. */
export async function demoPreflight(env: { databaseUrl: string; redisUrl: string }): Promise<string[]> {
  const problems: string[] = [];
  const pgProblem = await postgresProblem(env.databaseUrl);
  if (pgProblem) problems.push(pgProblem);
  const redisProblem = await redisProblemAt(env.redisUrl);
  if (redisProblem) problems.push(redisProblem);
  const sqlite = betterSqliteProblem();
  if (sqlite) problems.push(sqlite);
  return problems;
}

const where = (url: string) => {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol.startsWith('redis') ? '6379' : '5432')}`;
};

async function postgresProblem(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : String(error);
    return `PostgreSQL does not answer at ${where(url)} (${reason}). The local Bluesky network keeps its data in PostgreSQL (in schemas of its own, dropped when the demo stops): start one, e.g. \`docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16\`, or set DATABASE_URL=postgres://user:password@host:5432/database.`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A PING over Redis's own protocol: the network's AppView needs Redis. */
function redisProblemAt(url: string): Promise<string | null> {
  const u = new URL(url);
  const hint = `The local Bluesky network's AppView needs Redis: start one, e.g. \`docker run -d -p 6379:6379 redis:7\`, or set REDIS_URL=redis://host:6379.`;
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (problem: string | null) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(5_000, () =>
      done(`Redis does not answer at ${where(url)} (no answer within 5 s). ${hint}`),
    );
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) =>
      done(
        /^\+PONG/.test(data.toString())
          ? null
          : `Redis at ${where(url)} answered "${data.toString().trim()}" to PING. ${hint}`,
      ),
    );
    socket.once('error', (error) =>
      done(`Redis does not answer at ${where(url)} (${error.message}). ${hint}`),
    );
  });
}

/**
 * The network's own database driver is a native addon (better-sqlite3); tried in a child process, so a build that
 * does not load on this Node fails the probe, not the demo.
 */
function betterSqliteProblem(): string | null {
  const probe = spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: path.dirname(fileURLToPath(import.meta.url)),
    encoding: 'utf8',
  });
  if (probe.status === 0) return null;
  const reason = (probe.stderr || String(probe.error ?? 'unknown')).split('\n').find((l) => /Error/.test(l));
  return `better-sqlite3, which the local network needs, does not load on this Node (${reason ?? 'see npm install'}): run npm install again.`;
}
