/**
 * What `npm run demo:bluesky` reads (docs/networks.md, "Try it locally"): the PostgreSQL and Redis the local AT
 * Protocol network keeps its data in (the demo's own schemas, dropped when it stops), and the port the app listens
 * on. Not the server's configuration: the demo passes the server its own.
 */
export function demoBlueskyEnv(env: Record<string, string | undefined> = process.env) {
  return {
    databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    port: Number(env.PORT || 3000),
    logLevel: env.LOG_LEVEL || 'warn',
    /** Seconds between the living world's actions (about five a minute by default; a test may hurry it). */
    actionEverySeconds: Number(env.DEMO_ACTION_SECONDS || 12),
  };
}

/** The local network (@atproto/dev-env) reads its Redis from REDIS_HOST (`host:port`). */
export function setDevEnvRedis(redisUrl: string): void {
  const url = new URL(redisUrl);
  process.env.REDIS_HOST = `${url.hostname}:${url.port || '6379'}`;
}
