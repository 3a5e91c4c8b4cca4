import type { StreamAuthorityConfig } from './stream-authority-config';
import type { Sealed } from './sealed';
import type { StreamConfig } from './stream-config';
import type { ProgrammeConfig } from './programme-config';
import type { PgliteMemory } from './memory-config';
import type { HttpConfig } from './http-config';

/** The shapes of the server's configuration (config.ts parses the environment into them). */
/** The server's configuration, parsed once at start-up. */
export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicOrigin: string;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Requests slower than this (ms) are logged at warn; so are event-loop stalls as long. */
  logSlowMs: number;
  /** The share of other requests logged at info (below debug, requests are not logged one by one). */
  logSampleRate: number;
  /** How often the event-loop delay summary is logged, in seconds (0: never). */
  logEventLoopSeconds: number;
  corsOrigins: string[];
  /** false, true, a comma list of addresses/CIDRs, or a hop count (as a trust function). */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** How long a client may take to send a request (http-config.ts). */
  http: HttpConfig;
  videoFrameOrigins: string[];
  makerFrameOrigins: string[];
  imageOrigins: string[];
  seedDemo: boolean;
  webDistDir: string;
  /** The embedded database's memory settings (memory-config.ts). */
  pgliteMemory: PgliteMemory;
  /** The embedded database on a thread of its own in the server (PGLITE_THREAD; db/pglite-thread.ts). */
  pgliteThread: boolean;
  /** Seconds between the checks that give memory back (memory-trim.ts); 0: never. */
  memoryTrimSeconds: number;
  /** How far each V8 heap grows past its live size, in % (HEAP_GROWING_PERCENT; lib/heap-growth.ts); 0: V8's own. */
  heapGrowingPercent: number;
  /** Whether V8 runs in its memory saver mode (V8_MEMORY_SAVER; lib/heap-growth.ts). */
  memorySaver: boolean;
  /** Whether the server fixes glibc's mmap threshold (lib/malloc-threshold.ts): not when GLIBC_TUNABLES is set. */
  fixMmapThreshold: boolean;
  /** The one network the programme runs on (docs/networks.md). */
  socialNetwork: 'x' | 'bluesky';
  x: XConfig;
  bluesky: BlueskyConfig;
  /** What the programme's rules are seeded with (programme-config.ts). */
  programme: ProgrammeConfig;
  /** 32-byte key for tokens at rest; when absent the server generates one into DATA_DIR. */
  tokenEncryptionKey: string | undefined;
  /** Key for CSRF tokens; when absent one is generated once and kept in the database. */
  csrfSecret: string | undefined;
  /** Shared rate-limit counters for several API processes; per-process memory when absent. */
  redisUrl: string | undefined;
  rateLimits: RateLimitConfig;
  /** Whether leaderboard answers are kept in process until the totals change (LEADERBOARD_CACHE=off: never). */
  leaderboardCache: boolean;
  /**
   * Every job every this many seconds instead of the default schedule (tests, small programmes); a standing-by
   * worker then also tries to take leadership over that often (at most every 15 s).
   */
  workerIntervalSeconds: number | undefined;
  referrals: ReferralConfig;
  /** The programme's branding (validated JSON, served at `GET /api/public/branding`; docs/branding.md). */
  brandingFile: string;
  metrics: MetricsConfig;
  /** How long the worker leader may go without finishing a job before /readyz fails (0: not checked). */
  readyWorkerMaxAgeMs: number;
  /** How long in all an open week's ledger may wait on its client to take bytes before it is cut off. */
  ledgerSendWaitMs: number;
  stream: StreamConfig;
  admin: AdminConfig;
};

/**
 * The operator console. `accounts`: handles or network user ids of the programme's network allowed in; empty
 * means nobody. Without ADMIN_ACCOUNTS the simulated X's demo names its official account (DEMO_ADMIN_HANDLE);
 * anywhere else nobody is an admin until the operator names someone.
 */
export type AdminConfig = { accounts: string[]; sessionIdleMs: number; sessionMaxMs: number };

/**
 * Where Prometheus metrics are served: `GET /metrics` on the public port only with a bearer token, and/or on
 * a separate port (loopback by default). Neither set: nowhere (the safe default).
 */
export type MetricsConfig = { token: string | undefined; port: number | undefined; host: string };

/** Requests per minute per browser id for each route class; an IP gets `ipFactor` times as many (NAT). */
export type RateLimitConfig = {
  token: number;
  auth: number;
  apply: number;
  read: number;
  write: number;
  ipFactor: number;
  /**
   * Ceiling per client IP per minute on the public reads (leaderboard, posts, daily limit, announcements);
   * undefined (the default): no limit, as a CDN is meant to absorb visitor traffic.
   */
  publicRead: number | undefined;
};

/**
 * What referrals take from the environment. The reward, the anti-bot gate and the official accounts are
 * programme rules (apps/server/content/programme.json, stored versioned in the database), not configuration.
 */
export type ReferralConfig = {
  /** Handles nobody may use as a referrer, besides the programme's official accounts. */
  reservedHandles: string[];
};

/**
 * How the server reaches X: real X when all three credentials are set, otherwise the simulation mounted at
 * `/x-sim` on this server (URLs then point there).
 */
export type XConfig = {
  mode: 'real' | 'simulated';
  clientId: string;
  clientSecret: string;
  bearerToken: string;
  apiBaseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  scopes: string[];
  monthlyReadCap: number | undefined;
  /** Estimated price of one read, for the console's cost figure (X_PRICE_PER_READ_USD). */
  pricePerReadUsd?: number;
  requestTimeoutMs: number;
  /**
   * Where a post's link points: x.com for real X; in simulation mode the simulation's own page for the post
   * (`{publicOrigin}/x-sim/{handle}/status/{id}`), since the simulated post does not exist on x.com.
   */
  postUrlBase: string;
};

/**
 * Where the server reaches the AT Protocol network when SOCIAL_NETWORK=bluesky (docs/networks.md). The defaults are
 * Bluesky's public services; the tests point every one at a local network (@atproto/dev-env).
 */
export type BlueskyConfig = {
  /** The AppView for public reads (app.bsky.feed.getPosts, app.bsky.actor.getProfile). */
  appviewUrl: string;
  /** The PLC directory that resolves did:plc identities. */
  plcUrl: string;
  /** The relay whose repository event stream (com.atproto.sync.subscribeRepos) the worker consumes. */
  relayUrl: string;
  /** A service resolving handles to DIDs (com.atproto.identity.resolveHandle); unset: DNS and HTTPS well-known. */
  handleResolverUrl: string | undefined;
  /** Plain-http services allowed (a local network only; never in production). */
  allowHttp: boolean;
  /**
   * Whether the worker checks each stream commit's signature itself. Off by default: Bluesky's relay verifies
   * commits before relaying them, and checking again costs about 90% of the consumer's throughput (below the
   * public relay's rate on one core; docs/benchmarks.md). On for a relay you do not trust.
   */
  verifyCommits: boolean;
  /**
   * Where the stream's frames are read and decoded: `worker`, a worker thread of their own (the default: their
   * garbage is collected there, not in the loop serving requests), or `inline`, the serving thread (issue 31).
   */
  streamThread?: 'worker' | 'inline';
  /** Where a post's public page lives: `{postUrlBase}/profile/{handle}/post/{rkey}`. */
  postUrlBase: string;
  /** An app account (an app password) to fill a stream gap from authenticated search; its password is sealed. */
  appAccount?: { handle: string; password: Sealed; service: string } | undefined;
  /** How the refresh trusts the stream over the AppView (stream-authority-config.ts); unset: the defaults. */
  streamAuthority?: StreamAuthorityConfig;
};
