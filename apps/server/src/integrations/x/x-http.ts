import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Clock } from './clock';
import { XApiError } from './x-errors';
import { xErrorBodySchema } from './x-schemas';

export type XEndpoint =
  | 'search/recent'
  | 'tweets'
  | 'retweeted_by'
  | 'quote_tweets'
  | 'liked_tweets'
  | 'users/by/username'
  | 'users/me';

type RateWindow = { limit: number; remaining: number; resetAtMs: number };

/** What the client reports after each answered call, for the budget ledger. */
export type CallRecord = { endpoint: XEndpoint; status: number; reads: number };

export type XHttpOptions = {
  baseUrl: string;
  timeoutMs: number;
  clock: Clock;
  /** Retries of 5xx, network errors and time-outs (with exponential backoff and jitter). */
  maxRetries?: number;
  /** How many 429s in a row the client sits out (waiting for each reset) before giving up. */
  maxRateLimitWaits?: number;
  /** Called before each call; throws to refuse it (the monthly read cap). */
  beforeCall?: (endpoint: XEndpoint) => Promise<void>;
  /** Called after each answered call. */
  afterCall?: (record: CallRecord) => Promise<void>;
  random?: () => number;
  fetch?: XFetch;
};

/**
 * What the client needs of `fetch`: a GET with headers and a time-out, and of its answer the status, the headers
 * and the body's text. The global `fetch` is one; the demo's calls to its own simulated X use another
 * (integrations/x/loopback-fetch.ts).
 */
export type XFetch = (
  url: URL,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<XAnswer>;

/** The parts of a fetch answer the client reads. */
export type XAnswer = {
  status: number;
  ok: boolean;
  statusText: string;
  headers: { get(name: string): string | null; has(name: string): boolean };
  text(): Promise<string>;
};

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
/** Without a reset header a 429 waits this long (X always sends one; this guards against proxies). */
const DEFAULT_429_WAIT_MS = 60_000;

function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url').slice(0, 16);
}

/**
 * HTTP for the X API: bearer auth, per-call time-out, rate limits honoured from `x-rate-limit-*` headers
 * (waits until `reset` when `remaining` hits 0 or a 429 comes, never hammers), retries with backoff and jitter on
 * 5xx and network failures, responses validated with zod. Errors are XApiError with X's own message.
 */
export class XHttp {
  private readonly windows = new Map<string, RateWindow>();
  private readonly options: Required<Omit<XHttpOptions, 'beforeCall' | 'afterCall'>> &
    Pick<XHttpOptions, 'beforeCall' | 'afterCall'>;

  constructor(options: XHttpOptions) {
    this.options = {
      maxRetries: 4,
      maxRateLimitWaits: 8,
      random: Math.random,
      fetch: globalThis.fetch.bind(globalThis),
      ...options,
    };
  }

  /** The last rate-limit window seen for an endpoint and token (for the operator's view). */
  rateWindow(endpoint: XEndpoint, token: string): RateWindow | undefined {
    return this.windows.get(`${endpoint}:${tokenKey(token)}`);
  }

  async get<S extends z.ZodType>(
    endpoint: XEndpoint,
    path: string,
    params: Record<string, string | undefined>,
    token: string,
    schema: S,
    countReads: (body: z.infer<S>) => number,
  ): Promise<z.infer<S>> {
    const url = new URL(`${this.options.baseUrl.replace(/\/$/, '')}${path}`);
    for (const [key, value] of Object.entries(params))
      if (value !== undefined) url.searchParams.set(key, value);
    const windowKey = `${endpoint}:${tokenKey(token)}`;
    let failures = 0;
    let rateLimitWaits = 0;

    for (;;) {
      await this.waitForWindow(windowKey);
      await this.options.beforeCall?.(endpoint);
      let response: XAnswer;
      let text: string;
      try {
        // The time-out covers the whole answer, body included: a connection lost halfway through the body is
        // a failed call (retried), never a short answer.
        response = await this.options.fetch(url, {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        const timedOut =
          error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
        if (failures++ < this.options.maxRetries) {
          await this.options.clock.sleep(this.backoff(failures));
          continue;
        }
        throw new XApiError(
          endpoint,
          0,
          timedOut ? `no answer within ${this.options.timeoutMs} ms` : 'network error',
          timedOut ? 'timeout' : 'network',
        );
      }

      this.recordWindow(windowKey, response.headers);

      if (response.status === 429) {
        await this.options.afterCall?.({ endpoint, status: 429, reads: 0 });
        if (rateLimitWaits++ >= this.options.maxRateLimitWaits) {
          throw new XApiError(endpoint, 429, 'rate limited repeatedly; giving up for now');
        }
        const window = this.windows.get(windowKey);
        const wait = window ? window.resetAtMs - this.options.clock.now() : DEFAULT_429_WAIT_MS;
        await this.options.clock.sleep(Math.max(wait, 0) + 1000);
        continue;
      }
      if (response.status >= 500) {
        await this.options.afterCall?.({ endpoint, status: response.status, reads: 0 });
        if (failures++ < this.options.maxRetries) {
          await this.options.clock.sleep(this.backoff(failures));
          continue;
        }
        throw new XApiError(endpoint, response.status, describeErrorBody(text) ?? 'server error');
      }
      if (!response.ok) {
        await this.options.afterCall?.({ endpoint, status: response.status, reads: 0 });
        throw new XApiError(endpoint, response.status, describeErrorBody(text) ?? response.statusText);
      }

      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new XApiError(endpoint, response.status, 'answer is not JSON', 'invalid-body');
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new XApiError(
          endpoint,
          response.status,
          `unexpected answer: ${issue ? `${issue.path.join('.')} ${issue.message}` : 'invalid'}`,
          'invalid-body',
        );
      }
      await this.options.afterCall?.({ endpoint, status: response.status, reads: countReads(parsed.data) });
      return parsed.data;
    }
  }

  private async waitForWindow(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (!window || window.remaining > 0) return;
    const wait = window.resetAtMs - this.options.clock.now();
    if (wait > 0) await this.options.clock.sleep(wait + 1000);
    this.windows.delete(key);
  }

  private recordWindow(key: string, headers: XAnswer['headers']): void {
    const limit = Number(headers.get('x-rate-limit-limit'));
    const remaining = Number(headers.get('x-rate-limit-remaining'));
    const reset = Number(headers.get('x-rate-limit-reset'));
    if (headers.has('x-rate-limit-reset') && Number.isFinite(reset)) {
      this.windows.set(key, {
        limit: Number.isFinite(limit) ? limit : 0,
        remaining: Number.isFinite(remaining) ? remaining : 0,
        resetAtMs: reset * 1000,
      });
    }
  }

  /** Exponential backoff with full jitter: a random wait in [base·2^n / 2, base·2^n], capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
    return ceiling / 2 + this.options.random() * (ceiling / 2);
  }
}

/** X's message from an error body, whichever of its shapes it has. */
export function describeErrorBody(text: string): string | undefined {
  try {
    const body = xErrorBodySchema.safeParse(JSON.parse(text));
    if (!body.success) return undefined;
    const messages = body.data.errors?.map((e) => e.message).filter(Boolean);
    if (messages && messages.length > 0) return messages.join('; ');
    return body.data.detail ?? body.data.title;
  } catch {
    return undefined;
  }
}
