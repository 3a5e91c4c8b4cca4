import { FetchError } from './fetch-error';
import { HostGates } from './host-gates';

export type HttpOptions = {
  /** Per request: from sending it to the last byte of its answer. */
  timeoutMs: number;
  /** Tries after the first for a dropped connection, a 5xx or a rate limit. */
  retries: number;
  /** Longest wait for a host's rate limit before giving up on a request. */
  maxRateWaitMs: number;
  /** Requests in flight per host at most. */
  perHost: number;
};

export const defaultHttpOptions: HttpOptions = {
  timeoutMs: 15_000,
  retries: 4,
  maxRateWaitMs: 120_000,
  perHost: 8,
};

export type Answer = { status: number; headers: Headers; body: Uint8Array };

/**
 * The verifier's one HTTP client. Everything it fetches is hostile: each answer has a time limit and a size cap,
 * and a failure becomes a `FetchError` whose message is one plain sentence for the report (never a stack). Each
 * host's rate limits are respected (host-gates.ts): a 429 or 503 waits out `Retry-After` or `ratelimit-reset` and
 * tries again; a dropped connection or a 5xx is tried again after a short back-off.
 */
export class Http {
  readonly gates: HostGates;
  readonly options: HttpOptions;

  constructor(options: Partial<HttpOptions> = {}) {
    this.options = { ...defaultHttpOptions, ...options };
    this.gates = new HostGates(this.options.perHost);
  }

  /** GETs a URL and reads its body up to `maxBytes`; non-2xx answers throw a FetchError with the status. */
  async get(url: string, init: { accept: string; maxBytes: number }): Promise<Answer> {
    const host = hostOf(url);
    for (let attempt = 0; ; attempt++) {
      await this.gates.enter(host, this.options.maxRateWaitMs);
      let response: Response | undefined;
      try {
        const signal = AbortSignal.timeout(this.options.timeoutMs);
        response = await fetch(url, { headers: { accept: init.accept }, signal, redirect: 'follow' });
        this.gates.observe(host, response.status, response.headers);
        const body = await readCapped(response, init.maxBytes, url);
        if (response.ok) return { status: response.status, headers: response.headers, body };
        const retryable = response.status === 429 || response.status === 503 || response.status >= 500;
        if (retryable && attempt < this.options.retries) {
          if (response.status !== 429 && response.status !== 503) await sleep(backoffMs(attempt));
          continue;
        }
        throw new FetchError(
          `${url} answered HTTP ${response.status}${errorName(body)}`,
          response.status,
          body,
        );
      } catch (error) {
        if (error instanceof FetchError) throw error;
        const message = describeFailure(error, url, this.options.timeoutMs);
        // A time-out is not retried: a server that takes that long is reported, not waited on several times.
        if (!message.includes('timed out') && attempt < this.options.retries) {
          await sleep(backoffMs(attempt));
          continue;
        }
        throw new FetchError(message);
      } finally {
        this.gates.leave(host);
      }
    }
  }

  /** GETs a URL whose body the caller streams (the ledger); only the headers are waited for here. */
  async open(url: string, accept: string): Promise<{ response: Response; abort: () => void }> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error('timed out')), this.options.timeoutMs);
    try {
      const response = await fetch(url, { headers: { accept }, signal: controller.signal });
      if (!response.ok) {
        const body = await readCapped(response, 4096, url).catch(() => new Uint8Array());
        throw new FetchError(
          `${url} answered HTTP ${response.status}${errorName(body)}`,
          response.status,
          body,
        );
      }
      return { response, abort: () => controller.abort(new Error('aborted')) };
    } catch (error) {
      if (error instanceof FetchError) throw error;
      throw new FetchError(describeFailure(error, url, this.options.timeoutMs));
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Reads a response's body, refusing more than `maxBytes` (announced or actual). */
async function readCapped(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const announced = Number(response.headers.get('content-length') ?? NaN);
  if (announced > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new FetchError(`${url} answered ${announced} bytes, over the cap of ${maxBytes}`);
  }
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new FetchError(`${url} answered more than the cap of ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** ` (RecordNotFound: …)` from an XRPC error body, or ''. */
function errorName(body: Uint8Array): string {
  const parsed = xrpcError(body);
  return parsed ? ` (${parsed.error}${parsed.message ? `: ${parsed.message}` : ''})` : '';
}

/** The `error` and `message` of an XRPC error body, when it is one. */
export function xrpcError(body: Uint8Array | undefined): { error: string; message?: string } | null {
  if (!body || body.byteLength === 0 || body.byteLength > 65_536) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
    if (value && typeof value === 'object' && typeof (value as { error?: unknown }).error === 'string') {
      const { error, message } = value as { error: string; message?: unknown };
      return {
        error: error.slice(0, 100),
        ...(typeof message === 'string' ? { message: message.slice(0, 200) } : {}),
      };
    }
  } catch {
    // Not JSON: no error name to give.
  }
  return null;
}

function describeFailure(error: unknown, url: string, timeoutMs: number): string {
  const name = (error as { name?: string })?.name;
  if (name === 'TimeoutError' || String((error as Error)?.message).includes('timed out')) {
    return `${url} timed out after ${Math.round(timeoutMs / 1000)} s`;
  }
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  const code = cause?.code ?? (error as { code?: string })?.code;
  const what = code ?? cause?.message ?? (error as Error)?.message ?? 'unknown error';
  return `${url} could not be fetched (${what})`;
}

export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function backoffMs(attempt: number): number {
  return Math.min(250 * 2 ** attempt, 5_000);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
