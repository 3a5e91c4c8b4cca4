import { errorMessages, referralOk } from '@manaboard/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CSRF_TOKEN_LIFETIME_MS, STORAGE_KEYS } from '../config/constants';
import { fail, fakeReferralService, ok, requestsTo } from '../test/fake-referral-service';
import { apiRequest } from './api-client';
import { getBrowserId } from './browser-id';
import { readCsrfToken, storeCsrfToken } from './csrf-token';

const schema = referralOk(z.object({ done: z.boolean() }));
const post = () => apiRequest('/referrals/apply', { method: 'POST', body: { referrerHandle: 'a' }, schema });

afterEach(() => localStorage.clear());

describe('apiRequest identity headers (SPEC §6–§7)', () => {
  it('sends X-User-Id (the stored browser UUID) on every call and no CSRF header on reads', async () => {
    const fetchMock = fakeReferralService({ 'GET /me/account': ok({ done: true }) });
    await apiRequest('/me/account', { schema });
    await apiRequest('/me/account', { schema });
    const [first, second] = requestsTo(fetchMock, 'GET /me/account');
    expect(first?.headers.get('X-User-Id')).toBe(getBrowserId());
    expect(second?.headers.get('X-User-Id')).toBe(getBrowserId());
    expect(first?.headers.get('X-CSRF-Token')).toBeNull();
    expect(requestsTo(fetchMock, 'GET /csrf-token')).toHaveLength(0);
  });

  it('sends an anonymous public read like its preload: no id, no content type, and it makes no id', async () => {
    const fetchMock = fakeReferralService({ 'GET /api/programme': ok({ done: true }) });
    await apiRequest('/api/programme', { schema, anonymous: true });
    const [read] = requestsTo(fetchMock, 'GET /api/programme');
    expect(read?.headers.get('X-User-Id')).toBeNull();
    expect(read?.headers.get('Content-Type')).toBeNull();
    expect(read?.headers.get('Accept')).toBe('application/json');
    expect(localStorage.getItem(STORAGE_KEYS.browserId)).toBeNull();
    await expect(
      apiRequest('/referrals/apply', { method: 'POST', body: {}, schema, anonymous: true }),
    ).rejects.toThrow('a write cannot be anonymous');
  });

  it('revalidates a read with the server when asked, and leaves the HTTP cache to the browser otherwise', async () => {
    const fetchMock = fakeReferralService({ 'GET /api/mana': ok({ done: true }) });
    await apiRequest('/api/mana', { schema, anonymous: true, revalidate: true });
    await apiRequest('/api/mana', { schema, anonymous: true });
    const [own, board] = requestsTo(fetchMock, 'GET /api/mana');
    expect(own?.cache).toBe('no-cache');
    expect(board?.cache).toBe('default');
  });

  it('fetches a CSRF token for the first write, stores it with a 23 h expiry and reuses it', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T06:00:00Z'), toFake: ['Date'] });
    const fetchMock = fakeReferralService({ 'POST /referrals/apply': ok({ done: true }) });
    await post();
    await post();
    expect(requestsTo(fetchMock, 'GET /csrf-token')).toHaveLength(1);
    const writes = requestsTo(fetchMock, 'POST /referrals/apply');
    expect(writes.map((w) => w.headers.get('X-CSRF-Token'))).toEqual(['token-1', 'token-1']);
    expect(writes[0]?.headers.get('X-User-Id')).toBe(getBrowserId());
    expect(requestsTo(fetchMock, 'GET /csrf-token')[0]?.headers.get('X-User-Id')).toBe(getBrowserId());
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEYS.csrfToken) ?? '{}') as { expiresAt: number };
    expect(stored.expiresAt).toBe(Date.now() + CSRF_TOKEN_LIFETIME_MS);
  });

  it('clears and refetches a token past its expiry', async () => {
    vi.useFakeTimers({ now: new Date('2026-11-23T06:00:00Z'), toFake: ['Date'] });
    storeCsrfToken('old');
    vi.setSystemTime(Date.now() + CSRF_TOKEN_LIFETIME_MS);
    expect(readCsrfToken().state).toBe('stale');
    const fetchMock = fakeReferralService({ 'POST /referrals/apply': ok({ done: true }) });
    await post();
    expect(requestsTo(fetchMock, 'POST /referrals/apply')[0]?.headers.get('X-CSRF-Token')).toBe('token-1');
  });

  it('on CSRF_INVALID clears the token, fetches a new one and retries the write once', async () => {
    storeCsrfToken('rejected');
    const fetchMock = fakeReferralService({
      'POST /referrals/apply': [fail(403, 'CSRF_INVALID'), ok({ done: true })],
    });
    await expect(post()).resolves.toEqual({ ok: true, data: { done: true }, error: null });
    const writes = requestsTo(fetchMock, 'POST /referrals/apply');
    expect(writes.map((w) => w.headers.get('X-CSRF-Token'))).toEqual(['rejected', 'token-1']);
    expect(readCsrfToken()).toEqual({ state: 'valid', token: 'token-1' });
  });

  it('retries only once: a second CSRF_INVALID is the answer', async () => {
    storeCsrfToken('rejected');
    const fetchMock = fakeReferralService({ 'POST /referrals/apply': fail(403, 'CSRF_INVALID') });
    await expect(post()).rejects.toMatchObject({ code: 'CSRF_INVALID', status: 403 });
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(2);
    expect(requestsTo(fetchMock, 'GET /csrf-token')).toHaveLength(1);
  });

  it('does not retry other failures of a write', async () => {
    storeCsrfToken('fine');
    const fetchMock = fakeReferralService({ 'POST /referrals/apply': fail(400, 'SELF_REFERRAL') });
    await expect(post()).rejects.toMatchObject({ code: 'SELF_REFERRAL' });
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(1);
  });

  it('reports CSRF_GENERATION_FAILED when the first token cannot be fetched, and sends no write', async () => {
    const fetchMock = fakeReferralService({ 'GET /csrf-token': fail(500, 'INTERNAL_ERROR') });
    await expect(post()).rejects.toMatchObject({
      code: 'CSRF_GENERATION_FAILED',
      message: errorMessages.CSRF_GENERATION_FAILED,
      status: 500,
    });
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(0);
  });

  it('reports CSRF_REFRESH_FAILED when a rejected token cannot be replaced', async () => {
    storeCsrfToken('rejected');
    fakeReferralService({
      'POST /referrals/apply': fail(403, 'CSRF_INVALID'),
      'GET /csrf-token': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(post()).rejects.toMatchObject({ code: 'CSRF_REFRESH_FAILED', status: 0 });
    expect(readCsrfToken().state).toBe('none');
  });

  it('shares one token fetch between parallel writes', async () => {
    const fetchMock = fakeReferralService({ 'POST /referrals/apply': ok({ done: true }) });
    await Promise.all([post(), post(), post()]);
    expect(requestsTo(fetchMock, 'GET /csrf-token')).toHaveLength(1);
  });
});
