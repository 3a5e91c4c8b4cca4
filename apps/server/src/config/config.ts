import path from 'node:path';
import { config as loadDotenv } from 'dotenv';
import type { z } from 'zod';
import type { AdminConfig, Config } from './config-types';
import { ConfigError } from './config-error';
import { envSchema, type ParsedEnv } from './env-schema';
import { blueskyConfig, xConfig } from './network-config';
import { repoRoot } from './repo-root';
import { streamConfig } from './stream-config';
import { programmeConfig } from './programme-config';
import { memorySaver, pgliteMemory, pgliteThread } from './memory-config';
import { httpConfig } from './http-config';

export type {
  Config,
  AdminConfig,
  MetricsConfig,
  RateLimitConfig,
  ReferralConfig,
  XConfig,
  BlueskyConfig,
} from './config-types';
export { ConfigError } from './config-error';
export { simulatedXApp } from './network-config';

/** The demo world's admin (the simulated X only): its official account, signed in on the simulated page. */
export const DEMO_ADMIN_HANDLE = 'ManaboardHQ';

export type Env = z.input<typeof envSchema>;

/** Every variable the server reads (a test holds .env.example and docs/configuration.md to this list). */
export const configVariableNames = Object.keys(envSchema.shape);

function parseTrustProxy(value: string): Config['trustProxy'] {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

/**
 * Parses configuration from an environment record (process.env by default, after loading an optional .env
 * at the repository root). Throws ConfigError naming each invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined> = readProcessEnv()): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const bluesky = blueskyConfig(e);
  const publicOrigin = e.PUBLIC_ORIGIN ? new URL(e.PUBLIC_ORIGIN).origin : `http://localhost:${e.PORT}`;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicOrigin,
    dataDir: path.resolve(repoRoot, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    logSlowMs: e.LOG_SLOW_MS,
    logSampleRate: e.LOG_SAMPLE_RATE,
    logEventLoopSeconds: e.LOG_EVENT_LOOP_SECONDS,
    corsOrigins: e.CORS_ORIGINS,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    http: httpConfig(e),
    videoFrameOrigins: e.VIDEO_FRAME_ORIGINS,
    makerFrameOrigins: e.MAKER_FRAME_ORIGINS,
    imageOrigins: e.IMAGE_ORIGINS,
    seedDemo: e.SEED_DEMO,
    webDistDir: path.resolve(repoRoot, e.WEB_DIST_DIR),
    socialNetwork: e.SOCIAL_NETWORK,
    x: xConfig(e, publicOrigin),
    bluesky,
    tokenEncryptionKey: e.TOKEN_ENCRYPTION_KEY,
    csrfSecret: e.CSRF_SECRET,
    redisUrl: e.REDIS_URL,
    rateLimits: {
      token: e.RATE_LIMIT_TOKEN_PER_MINUTE,
      auth: e.RATE_LIMIT_AUTH_PER_MINUTE,
      apply: e.RATE_LIMIT_APPLY_PER_MINUTE,
      read: e.RATE_LIMIT_READ_PER_MINUTE,
      write: e.RATE_LIMIT_WRITE_PER_MINUTE,
      ipFactor: e.RATE_LIMIT_IP_FACTOR,
      publicRead: e.RATE_LIMIT_PUBLIC_READ_PER_MINUTE,
    },
    leaderboardCache: e.LEADERBOARD_CACHE === 'on',
    workerIntervalSeconds: e.WORKER_INTERVAL_SECONDS,
    referrals: { reservedHandles: e.RESERVED_HANDLES },
    brandingFile: path.resolve(repoRoot, e.BRANDING_FILE),
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    readyWorkerMaxAgeMs: e.READY_WORKER_MAX_AGE_SECONDS * 1000,
    ledgerSendWaitMs: e.LEDGER_SEND_WAIT_SECONDS * 1000,
    stream: streamConfig(e),
    programme: programmeConfig(e),
    pgliteMemory: pgliteMemory(e),
    pgliteThread: pgliteThread(e.PGLITE_THREAD, e.SOCIAL_NETWORK),
    memoryTrimSeconds: e.MEMORY_TRIM_SECONDS,
    heapGrowingPercent: e.HEAP_GROWING_PERCENT,
    memorySaver: memorySaver(e.V8_MEMORY_SAVER, e.SOCIAL_NETWORK),
    // glibc's own settings, which glibc reads as the process starts: set at all (even empty), they stand as they are.
    fixMmapThreshold: env.GLIBC_TUNABLES === undefined,
    admin: adminConfig(e),
  };
}

function adminConfig(e: ParsedEnv): AdminConfig {
  const demo = e.SOCIAL_NETWORK === 'x' && !e.X_CLIENT_ID;
  return {
    accounts: e.ADMIN_ACCOUNTS ?? (demo ? [DEMO_ADMIN_HANDLE] : []),
    sessionIdleMs: e.ADMIN_SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: e.ADMIN_SESSION_MAX_HOURS * 3_600_000,
  };
}

function readProcessEnv(): Record<string, string | undefined> {
  loadDotenv({ path: path.join(repoRoot, '.env'), quiet: true });
  return process.env;
}

/** The repository root, for scripts that need to find shipped content. */
export const paths = { repoRoot };

/**
 * The directory a command was typed in. npm runs workspace scripts in the workspace (apps/server) and passes the
 * caller's directory as INIT_CWD, so a CLI resolves relative paths against this, not `process.cwd()`.
 */
export function invocationDirectory(env: Record<string, string | undefined> = process.env): string {
  return env.INIT_CWD ?? process.cwd();
}
