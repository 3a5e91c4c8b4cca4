import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { isTransientFailure, withRetry } from './retry';

describe('withRetry (SPEC §7: 3 attempts, 1 s × attempt number)', () => {
  it('tries 3 times, waiting 1 s then 2 s, and gives up with the last error', async () => {
    vi.useFakeTimers();
    const task = vi.fn(async () => Promise.reject(new ApiError('Network error', 0)));
    const outcome = withRetry(task).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(task).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(task).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(task).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(task).toHaveBeenCalledTimes(3);
    expect(await outcome).toMatchObject({ message: 'Network error', status: 0 });
  });

  it('returns the first success', async () => {
    vi.useFakeTimers();
    const task = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new ApiError('HTTP 503: Service Unavailable', 503))
      .mockResolvedValueOnce('done');
    const outcome = withRetry(task);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(outcome).resolves.toBe('done');
    expect(task).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['a 400 answer', new ApiError('You cannot refer yourself.', 400, { code: 'SELF_REFERRAL' })],
    ['a 429', new ApiError('slow down', 429)],
    ['a 401', new ApiError('who', 401)],
    ['a non-ApiError', new Error('bug')],
  ])('does not repeat %s', async (_name, error) => {
    const task = vi.fn(async () => Promise.reject(error));
    await expect(withRetry(task)).rejects.toBe(error);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('counts network failures, our time-out and server faults as transient', () => {
    expect(isTransientFailure(new ApiError('Network error', 0))).toBe(true);
    expect(isTransientFailure(new ApiError('Request timeout', 408))).toBe(true);
    expect(isTransientFailure(new ApiError('HTTP 500: x', 500))).toBe(true);
    expect(isTransientFailure(new ApiError('x', 404))).toBe(false);
  });

  it('stops waiting when the signal aborts', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const task = vi.fn(async () => Promise.reject(new ApiError('Network error', 0)));
    const outcome = withRetry(task, controller.signal).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort(new DOMException('gone', 'AbortError'));
    expect(await outcome).toMatchObject({ name: 'AbortError' });
    expect(task).toHaveBeenCalledTimes(1);
  });
});
