import { z } from 'zod';
import type { BlueskyConfig, XConfig } from './config-types';
import { ConfigError } from './config-error';
import { booleanString } from './env-values';
import { Sealed } from './sealed';
import { streamAuthorityConfig, streamAuthorityEnv } from './stream-authority-config';

/** The variables that choose the social network and reach it (part of the schema in env-schema.ts). */
export const networkEnv = z.object({
  SOCIAL_NETWORK: z.enum(['x', 'bluesky']).default('x'),
  BLUESKY_APPVIEW_URL: z.url({ protocol: /^https?$/ }).default('https://public.api.bsky.app'),
  BLUESKY_PLC_URL: z.url({ protocol: /^https?$/ }).default('https://plc.directory'),
  BLUESKY_RELAY_URL: z.url({ protocol: /^wss?$/ }).default('wss://bsky.network'),
  BLUESKY_HANDLE_RESOLVER_URL: z.url({ protocol: /^https?$/ }).optional(),
  BLUESKY_ALLOW_HTTP: booleanString.default(false),
  BLUESKY_VERIFY_COMMITS: booleanString.default(false),
  BLUESKY_STREAM_THREAD: z.enum(['worker', 'inline']).default('worker'),
  BLUESKY_APP_HANDLE: z.string().min(1).optional(),
  BLUESKY_APP_PASSWORD: z.string().min(1).optional(),
  BLUESKY_APP_SERVICE: z.url({ protocol: /^https?$/ }).default('https://bsky.social'),
  ...streamAuthorityEnv,
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
});

type NetworkEnv = z.infer<typeof networkEnv>;

/** Credentials of the simulated X's demo app (public on purpose: the simulation guards nothing real). */
export const simulatedXApp = {
  clientId: 'manaboard-demo-client',
  clientSecret: 'manaboard-demo-secret',
  bearerToken: 'manaboard-demo-app-bearer',
} as const;

export function blueskyConfig(e: NetworkEnv & { NODE_ENV: string }): BlueskyConfig {
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
  return {
    appviewUrl: e.BLUESKY_APPVIEW_URL,
    plcUrl: e.BLUESKY_PLC_URL,
    relayUrl: e.BLUESKY_RELAY_URL,
    handleResolverUrl: e.BLUESKY_HANDLE_RESOLVER_URL,
    allowHttp: e.BLUESKY_ALLOW_HTTP,
    verifyCommits: e.BLUESKY_VERIFY_COMMITS,
    streamThread: e.BLUESKY_STREAM_THREAD,
    streamAuthority: streamAuthorityConfig(e),
    postUrlBase: 'https://bsky.app',
    appAccount:
      e.BLUESKY_APP_HANDLE && e.BLUESKY_APP_PASSWORD
        ? {
            handle: e.BLUESKY_APP_HANDLE,
            password: new Sealed(e.BLUESKY_APP_PASSWORD),
            service: e.BLUESKY_APP_SERVICE,
          }
        : undefined,
  };
}

export function xConfig(e: NetworkEnv & { PORT: number }, publicOrigin: string): XConfig {
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
