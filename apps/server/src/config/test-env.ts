/**
 * The variables the test suites read (set by .ci/run when the services answer): a PostgreSQL server to run
 * every API test against as well as PGlite, and a Redis server for the shared rate-limit store; the log
 * level of the Bluesky tests' worker (`BSKY_TEST_LOG`, silent unless set, for debugging a run); and for the
 * browser tests the system Chromium (`CHROMIUM_PATH`, else Debian's) and whether this is CI (`CI=true`: a
 * missing browser fails the run instead of skipping it).
 */
export const testEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL || undefined,
  redisUrl: process.env.TEST_REDIS_URL || undefined,
  blueskyLogLevel: process.env.BSKY_TEST_LOG || 'silent',
  chromiumPath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  ci: process.env.CI === 'true',
};
