import { FetchError } from './fetch-error';

type Gate = { active: number; pausedUntil: number; waiting: Array<() => void>; strikes: number };

/**
 * Per-host politeness: at most `perHost` requests in flight to one host, and none while the host asked us to
 * wait. A host asks with a 429 or 503 (`Retry-After`, or `ratelimit-reset`), or by announcing
 * `ratelimit-remaining: 0` with its `ratelimit-reset` (the AT Protocol PDS's headers, after the IETF draft).
 */
export class HostGates {
  private readonly gates = new Map<string, Gate>();

  constructor(private readonly perHost: number) {}

  /** Waits for a free slot on the host and the end of any pause it asked for. */
  async enter(host: string, maxWaitMs: number): Promise<void> {
    const gate = this.gate(host);
    const started = Date.now();
    for (;;) {
      const pause = gate.pausedUntil - Date.now();
      if (pause > 0) {
        if (Date.now() + pause - started > maxWaitMs) {
          throw new FetchError(
            `${host} asks to wait ${Math.ceil(pause / 1000)} s (rate limit), longer than we wait`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        continue;
      }
      if (gate.active < this.perHost) {
        gate.active += 1;
        return;
      }
      await new Promise<void>((resolve) => gate.waiting.push(resolve));
    }
  }

  leave(host: string): void {
    const gate = this.gate(host);
    gate.active -= 1;
    gate.waiting.shift()?.();
  }

  /** Reads the rate-limit headers of an answer and pauses the host when it asks. */
  observe(host: string, status: number, headers: Headers): void {
    const gate = this.gate(host);
    const now = Date.now();
    let until = 0;
    if (status === 429 || status === 503) {
      gate.strikes += 1;
      until =
        retryAfter(headers, now) ?? resetAt(headers, now) ?? now + 1_000 * 2 ** Math.min(gate.strikes - 1, 5);
    } else {
      gate.strikes = 0;
      const remaining = Number(headers.get('ratelimit-remaining') ?? NaN);
      if (remaining <= 0) until = resetAt(headers, now) ?? 0;
    }
    if (until > gate.pausedUntil) gate.pausedUntil = until;
  }

  /** How long the host is paused from now (ms; 0 when not), for tests and the report. */
  pausedFor(host: string): number {
    return Math.max(0, this.gate(host).pausedUntil - Date.now());
  }

  private gate(host: string): Gate {
    let gate = this.gates.get(host);
    if (!gate) this.gates.set(host, (gate = { active: 0, pausedUntil: 0, waiting: [], strikes: 0 }));
    return gate;
  }
}

/** `Retry-After`: seconds, or an HTTP date. */
function retryAfter(headers: Headers, now: number): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return now + Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : date;
}

/**
 * `ratelimit-reset`: the AT Protocol PDS sends epoch seconds, the IETF draft seconds from now; a value past a
 * billion can only be the former.
 */
function resetAt(headers: Headers, now: number): number | null {
  const value = Number(headers.get('ratelimit-reset') ?? NaN);
  if (!Number.isFinite(value) || value < 0) return null;
  return value > 1e9 ? value * 1000 : now + value * 1000;
}
