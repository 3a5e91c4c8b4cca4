import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { config as loadDotenv } from 'dotenv';
import { z } from 'zod';
import { Sealed } from './sealed';
import { memoryEnvShape, pgliteMemory } from './memory-config';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const originList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0),
  )
  .pipe(z.array(z.url({ protocol: /^https?$/ }).transform((url) => new URL(url).origin)));

const handleList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().replace(/^@/, ''))
      .filter((item) => item.length > 0),
  )
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_]{1,15}$/, 'must be X handles (1–15 letters, digits, _)')));

/** Handles (any network's: X names, Bluesky domains) or network user ids (X numbers, Bluesky DIDs). */
const accountList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim().replace(/^@/, ''))
      .filter((item) => item.length > 0),
  )
  .pipe(z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,253}$/, 'must be handles or network user ids')));

/**
 * Every environment variable the server reads. Documented one by one in docs/configuration.md and
 * .env.example; nothing else in the server reads process.env.
 */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_SLOW_MS: z.coerce.number().int().min(1).default(500),
  LOG_SAMPLE_RATE: z.coerce.number().min(0).max(1).default(0.001),
  LOG_EVENT_LOOP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  CORS_ORIGINS: originList.default([]),
  TRUST_PROXY: z.string().default('false'),
  VIDEO_FRAME_ORIGINS: originList.default(['https://www.youtube-nocookie.com']),
  MAKER_FRAME_ORIGINS: originList.default([]),
  IMAGE_ORIGINS: originList.default(['https://pbs.twimg.com', 'https://abs.twimg.com']),
  SEED_DEMO: booleanString.default(true),
  WEB_DIST_DIR: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  SOCIAL_NETWORK: z.enum(['x', 'bluesky']).default('x'),
  BLUESKY_APPVIEW_URL: z.url({ protocol: /^https?$/ }).default('https://public.api.bsky.app'),
  BLUESKY_PLC_URL: z.url({ protocol: /^https?$/ }).default('https://plc.directory'),
  BLUESKY_RELAY_URL: z.url({ protocol: /^wss?$/ }).default('wss://bsky.network'),
  BLUESKY_HANDLE_RESOLVER_URL: z.url({ protocol: /^https?$/ }).optional(),
  BLUESKY_ALLOW_HTTP: booleanString.default(false),
  BLUESKY_VERIFY_COMMITS: booleanString.default(false),
  BLUESKY_APP_HANDLE: z.string().min(1).optional(),
  BLUESKY_APP_PASSWORD: z.string().min(1).optional(),
  BLUESKY_APP_SERVICE: z.url({ protocol: /^https?$/ }).default('https://bsky.social'),
  X_CLIENT_ID: z.string().min(1).optional(),
  X_CLIENT_SECRET: z.string().min(1).optional(),
  X_BEARER_TOKEN: z.string().min(1).optional(),
  X_API_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.x.com'),
  X_AUTHORIZE_URL: z.url({ protocol: /^https?$/ }).default('https://x.com/i/oauth2/authorize'),
  X_TOKEN_URL: z.url({ protocol: /^https?$/ }).default('https://api.x.com/2/oauth2/token'),
  X_REVOKE_URL: z.url({ protocol: /^https?$/ }).default('https://api.x.com/2/oauth2/revoke'),
  X_SCOPES: z.string().min(1).default('tweet.read users.read like.read offline.access'),
  X_MONTHLY_READ_CAP: z.coerce.number().int().min(0).optional(),
  X_PRICE_PER_READ_USD: z.coerce.number().min(0).max(10).default(0.005),
  X_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  CSRF_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  TOKEN_ENCRYPTION_KEY: z
    .string()
    .regex(/^[A-Za-z0-9+/=_-]{43,88}$/, 'must be 32 bytes, base64 or hex (openssl rand -base64 32)')
    .optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_APPLY_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_READ_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_WRITE_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_IP_FACTOR: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_PUBLIC_READ_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  LEADERBOARD_CACHE: z.enum(['on', 'off']).default('on'),
  WORKER_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).optional(),
  RESERVED_HANDLES: handleList.default([]),
  BRANDING_FILE: z.string().min(1).default(path.join(repoRoot, 'apps/server/content/branding.json')),
  METRICS_TOKEN: z
    .string()
    .regex(/^\S{24,}$/, 'must be at least 24 characters without spaces')
    .optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  READY_WORKER_MAX_AGE_SECONDS: z.coerce.number().int().min(0).default(600),
  ADMIN_ACCOUNTS: accountList.optional(),
  ADMIN_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  ADMIN_SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(168).default(12),
  ...memoryEnvShape,
});

/** The demo world's admin (the simulated X only): its official account, signed in on the simulated page. */
export const DEMO_ADMIN_HANDLE = 'ManaboardHQ';

export type Env = z.input<typeof envSchema>;

/** Every variable the server reads (a test holds .env.example and docs/configuration.md to this list). */
export const configVariableNames = Object.keys(envSchema.shape);

export type {
  Config,
  AdminConfig,
  MetricsConfig,
  RateLimitConfig,
  ReferralConfig,
  XConfig,
  BlueskyConfig,
} from './config-types';
import type { AdminConfig, Config, XConfig } from './config-types';

/** Credentials of the simulated X's demo app (public on purpose: the simulation guards nothing real). */
export const simulatedXApp = {
  clientId: 'manaboard-demo-client',
  clientSecret: 'manaboard-demo-secret',
  bearerToken: 'manaboard-demo-app-bearer',
} as const;

/** Raised when the environment does not describe a runnable server; the message lists every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

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
  if (e.BLUESKY_ALLOW_HTTP && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  BLUESKY_ALLOW_HTTP=true is for a local test network only and is refused with NODE_ENV=production',
    );
  }
  if (Boolean(e.BLUESKY_APP_HANDLE) !== Boolean(e.BLUESKY_APP_PASSWORD)) {
    throw new ConfigError(
      'Invalid configuration:\n  BLUESKY_APP_HANDLE and BLUESKY_APP_PASSWORD must be set together (or neither: a stream gap then heals only for known posts)',
    );
  }
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
    videoFrameOrigins: e.VIDEO_FRAME_ORIGINS,
    makerFrameOrigins: e.MAKER_FRAME_ORIGINS,
    imageOrigins: e.IMAGE_ORIGINS,
    seedDemo: e.SEED_DEMO,
    webDistDir: path.resolve(repoRoot, e.WEB_DIST_DIR),
    pgliteMemory: pgliteMemory(e),
    socialNetwork: e.SOCIAL_NETWORK,
    x: xConfig(e, publicOrigin),
    bluesky: {
      appviewUrl: e.BLUESKY_APPVIEW_URL,
      plcUrl: e.BLUESKY_PLC_URL,
      relayUrl: e.BLUESKY_RELAY_URL,
      handleResolverUrl: e.BLUESKY_HANDLE_RESOLVER_URL,
      allowHttp: e.BLUESKY_ALLOW_HTTP,
      verifyCommits: e.BLUESKY_VERIFY_COMMITS,
      postUrlBase: 'https://bsky.app',
      appAccount:
        e.BLUESKY_APP_HANDLE && e.BLUESKY_APP_PASSWORD
          ? {
              handle: e.BLUESKY_APP_HANDLE,
              password: new Sealed(e.BLUESKY_APP_PASSWORD),
              service: e.BLUESKY_APP_SERVICE,
            }
          : undefined,
    },
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
    admin: adminConfig(e),
  };
}

function adminConfig(e: z.infer<typeof envSchema>): AdminConfig {
  const demo = e.SOCIAL_NETWORK === 'x' && !e.X_CLIENT_ID;
  return {
    accounts: e.ADMIN_ACCOUNTS ?? (demo ? [DEMO_ADMIN_HANDLE] : []),
    sessionIdleMs: e.ADMIN_SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: e.ADMIN_SESSION_MAX_HOURS * 3_600_000,
  };
}

function xConfig(e: z.infer<typeof envSchema>, publicOrigin: string): XConfig {
  const common = {
    scopes: e.X_SCOPES.split(/\s+/).filter(Boolean),
    monthlyReadCap: e.X_MONTHLY_READ_CAP,
    pricePerReadUsd: e.X_PRICE_PER_READ_USD,
    requestTimeoutMs: e.X_REQUEST_TIMEOUT_MS,
  };
  const given = [e.X_CLIENT_ID, e.X_CLIENT_SECRET, e.X_BEARER_TOKEN].filter(Boolean).length;
  if (given > 0 && given < 3) {
    throw new ConfigError(
      'Invalid configuration:\n  X_CLIENT_ID, X_CLIENT_SECRET and X_BEARER_TOKEN must be set together (or none, for the simulated X)',
    );
  }
  if (e.X_CLIENT_ID && e.X_CLIENT_SECRET && e.X_BEARER_TOKEN) {
    return {
      mode: 'real',
      clientId: e.X_CLIENT_ID,
      clientSecret: e.X_CLIENT_SECRET,
      bearerToken: e.X_BEARER_TOKEN,
      apiBaseUrl: e.X_API_BASE_URL,
      authorizeUrl: e.X_AUTHORIZE_URL,
      tokenUrl: e.X_TOKEN_URL,
      revokeUrl: e.X_REVOKE_URL,
      postUrlBase: 'https://x.com',
      ...common,
    };
  }
  // The browser reaches the simulated sign-in page through the public origin; the server calls the simulated
  // API on its own loopback port.
  const internal = `http://127.0.0.1:${e.PORT}/x-sim`;
  return {
    mode: 'simulated',
    ...simulatedXApp,
    apiBaseUrl: internal,
    authorizeUrl: `${publicOrigin}/x-sim/i/oauth2/authorize`,
    tokenUrl: `${internal}/2/oauth2/token`,
    revokeUrl: `${internal}/2/oauth2/revoke`,
    postUrlBase: `${publicOrigin}/x-sim`,
    ...common,
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
