import type { LimitedEndpoint } from './rate-limits';

type Target = LimitedEndpoint | '*';
type Plan =
  | { kind: 'rate-limit' }
  | { kind: 'server-error'; status: number }
  | { kind: 'slow'; ms: number }
  | { kind: 'hold' }
  | { kind: 'drop' }
  | { kind: 'cut' }
  | { kind: 'partial' };
type Fault = Plan & { target: Target; remaining: number };

/** What happens to one call. */
export type FaultDecision = Plan | { kind: 'none' };

/**
 * Faults on demand: the next N calls of an endpoint (or of every endpoint, '*') answer 429 (a storm), fail
 * with a 5xx, answer slowly, lose their connection (before the answer or halfway through its body), or (tweet lookup) report every second id as not found
 * although it exists, as X's partial errors sometimes do. Deleted posts, protected or suspended authors and
 * renamed handles are states of the world instead (World.deletePost, protectUser, suspendUser, rename).
 * Faults are used up in the order they were planned.
 */
export class Faults {
  private queue: Fault[] = [];
  private waiting: (() => void)[] = [];
  private holding: (() => void)[] = [];

  rateLimitStorm(target: Target, calls: number): this {
    return this.plan({ kind: 'rate-limit' }, target, calls);
  }

  serverErrors(target: Target, calls: number, status = 503): this {
    return this.plan({ kind: 'server-error', status }, target, calls);
  }

  slowAnswers(target: Target, calls: number, ms: number): this {
    return this.plan({ kind: 'slow', ms }, target, calls);
  }

  /**
   * The next calls wait, unanswered, until `release()`: a test can act (kill the caller, say) while a call is
   * certainly in flight, however loaded the machine is.
   */
  holdAnswers(target: Target, calls: number): this {
    return this.plan({ kind: 'hold' }, target, calls);
  }

  /** How many calls are waiting on a hold right now. */
  held(): number {
    return this.waiting.length;
  }

  /** Lets every held call go on. */
  release(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** Resolves when a held call arrives (at once when one already waits). */
  whenHeld(): Promise<void> {
    if (this.waiting.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.holding.push(resolve));
  }

  dropConnections(target: Target, calls: number): this {
    return this.plan({ kind: 'drop' }, target, calls);
  }

  /** Answers 200 with its headers, then loses the connection halfway through the body. */
  cutBodies(target: Target, calls: number): this {
    return this.plan({ kind: 'cut' }, target, calls);
  }

  partialErrors(target: Target, calls: number): this {
    return this.plan({ kind: 'partial' }, target, calls);
  }

  /** Forgets every planned fault. */
  clear(): void {
    this.queue = [];
  }

  /** How many faulty calls are still planned. */
  pending(): number {
    return this.queue.reduce((sum, f) => sum + f.remaining, 0);
  }

  /** Waits here while the call is held (see holdAnswers). */
  hold(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      const holding = this.holding;
      this.holding = [];
      for (const notify of holding) notify();
    });
  }

  /** The fault for this call, if any (each fault is used up call by call). */
  next(endpoint: LimitedEndpoint): FaultDecision {
    const fault = this.queue.find((f) => f.target === '*' || f.target === endpoint);
    if (!fault) return { kind: 'none' };
    fault.remaining--;
    if (fault.remaining <= 0) this.queue = this.queue.filter((f) => f !== fault);
    const { target: _target, remaining: _remaining, ...decision } = fault;
    return decision;
  }

  private plan(plan: Plan, target: Target, calls: number): this {
    if (calls > 0) this.queue.push({ ...plan, target, remaining: calls });
    return this;
  }
}
