import path from 'node:path';
import { z } from 'zod';
import { accountList, booleanString, handleList, originList } from './env-values';
import { networkEnv } from './network-config';
import { repoRoot } from './repo-root';
import { streamEnvShape } from './stream-config';
import { programmeEnvShape } from './programme-config';
import { memoryEnvShape } from './memory-config';
import { httpEnvShape } from './http-config';

/**
 * Every environment variable the server reads. Documented one by one in docs/configuration.md and
 * .env.example; nothing else in the server reads process.env.
 */
export const envSchema = z.object({
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
  ...httpEnvShape,
  VIDEO_FRAME_ORIGINS: originList.default(['https://www.youtube-nocookie.com']),
  MAKER_FRAME_ORIGINS: originList.default([]),
  IMAGE_ORIGINS: originList.default(['https://pbs.twimg.com', 'https://abs.twimg.com']),
  SEED_DEMO: booleanString.default(true),
  WEB_DIST_DIR: z.string().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  ...networkEnv.shape,
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
  LEDGER_SEND_WAIT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  ...streamEnvShape,
  ...programmeEnvShape,
  ...memoryEnvShape,
  ADMIN_ACCOUNTS: accountList.optional(),
  ADMIN_SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(1440).default(30),
  ADMIN_SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(168).default(12),
});

/** The environment after parsing: defaults filled in, lists split, numbers coerced. */
export type ParsedEnv = z.infer<typeof envSchema>;
