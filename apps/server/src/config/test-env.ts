/**
 * The variables the test suites read (set by .ci/run when the services answer): a PostgreSQL server to run
 * every API test against as well as PGlite, and a Redis server for the shared rate-limit store; and the log
 * level of the Bluesky tests' worker (`BSKY_TEST_LOG`, silent unless set, for debugging a run).
 */
export const testEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL || undefined,
  redisUrl: process.env.TEST_REDIS_URL || undefined,
  blueskyLogLevel: process.env.BSKY_TEST_LOG || 'silent',
};
