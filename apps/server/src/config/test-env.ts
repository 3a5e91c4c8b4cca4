/**
 * The variables the test suites read (set by .ci/run when the services answer): a PostgreSQL server to run
 * every API test against as well as PGlite, and a Redis server for the shared rate-limit store.
 */
export const testEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL || undefined,
  redisUrl: process.env.TEST_REDIS_URL || undefined,
};
