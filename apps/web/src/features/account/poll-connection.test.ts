import type { AccountInfo } from '@manaboard/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { pollDelayMs, pollForConnection } from './poll-connection';

const notYet: AccountInfo = { connected: false, handle: null, avatarUrl: null };
const linked: AccountInfo = { connected: true, handle: 'alice', avatarUrl: null };

describe('auth-return polling (SPEC §9)', () => {
  it('waits 500 ms, doubling every 10 checks, capped at 2 s', () => {
    expect([0, 9, 10, 19, 20, 29, 40].map(pollDelayMs)).toEqual([500, 500, 1000, 1000, 2000, 2000, 2000]);
  });

  it('makes at most 30 checks on that schedule, then reports not connected', async () => {
    vi.useFakeTimers();
    const times: number[] = [];
    const check = vi.fn(async () => {
      times.push(Date.now());
      return notYet;
    });
    const start = Date.now();
    const outcome = pollForConnection(check, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(60_000);
    await expect(outcome).resolves.toEqual({ kind: 'not-connected' });
    expect(check).toHaveBeenCalledTimes(30);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    // The wait after checks 1–10 is 500 ms, after 11–20 1 s, after 21–29 2 s (none after the 30th).
    expect(gaps).toEqual([...Array(10).fill(500), ...Array(10).fill(1000), ...Array(9).fill(2000)]);
    expect((times[29] ?? 0) - start).toBe(10 * 500 + 10 * 1000 + 9 * 2000);
  });

  it('stops at the first connected answer (a handle is required)', async () => {
    vi.useFakeTimers();
    const check = vi
      .fn<() => Promise<AccountInfo>>()
      .mockResolvedValueOnce(notYet)
      .mockResolvedValueOnce({ connected: true, handle: null, avatarUrl: null })
      .mockResolvedValue(linked);
    const outcome = pollForConnection(check, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(999);
    expect(check).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toEqual({ kind: 'connected', account: linked });
    expect(check).toHaveBeenCalledTimes(3);
  });

  it('retries a network error after 2 s', async () => {
    vi.useFakeTimers();
    const check = vi
      .fn<() => Promise<AccountInfo>>()
      .mockRejectedValueOnce(new ApiError('Network error', 0))
      .mockResolvedValue(linked);
    const outcome = pollForConnection(check, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(1999);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toMatchObject({ kind: 'connected' });
  });

  it('gives up at once on a non-network failure', async () => {
    const error = new ApiError('HTTP 500: Internal Server Error', 500);
    const check = vi.fn(async () => Promise.reject(error));
    await expect(pollForConnection(check, new AbortController().signal)).resolves.toEqual({
      kind: 'failed',
      error,
    });
    expect(check).toHaveBeenCalledTimes(1);
  });

  it('stops when the screen goes away', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const check = vi.fn(async () => notYet);
    const outcome = pollForConnection(check, controller.signal).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort(new DOMException('gone', 'AbortError'));
    expect(await outcome).toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(check).toHaveBeenCalledTimes(1);
  });
});
