import { afterEach, describe, expect, it } from 'vitest';
import { fail, fakeReferralService, ok, requestsTo } from '../../../test/fake-referral-service';
import { getReferralStats } from './get-referral-stats';
import { getReferralStatus, referrerOf } from './get-referral-status';

afterEach(() => localStorage.clear());

describe('referrals api', () => {
  it('reads the referee count from GET /referrals/stats with the browser id', async () => {
    const fetchMock = fakeReferralService({ 'GET /referrals/stats': ok({ refereeCount: 3 }) });
    await expect(getReferralStats()).resolves.toEqual({ refereeCount: 3 });
    expect(requestsTo(fetchMock, 'GET /referrals/stats')[0]?.headers.get('X-User-Id')).toBeTruthy();
  });

  it('reads the status, and refuses an answer outside the contract', async () => {
    fakeReferralService({
      'GET /referrals/status': [
        ok({ status: 'already_referred', referrerHandle: 'bob' }),
        ok({ status: 'maybe', referrerHandle: null }),
      ],
    });
    await expect(getReferralStatus()).resolves.toEqual({ status: 'already_referred', referrerHandle: 'bob' });
    await expect(getReferralStatus()).rejects.toMatchObject({ message: 'Unexpected response from server' });
  });

  it('does not retry a status the server refused', async () => {
    const fetchMock = fakeReferralService({ 'GET /referrals/status': fail(401, 'UNAUTHORIZED') });
    await expect(getReferralStatus()).rejects.toMatchObject({ status: 401 });
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(1);
  });

  it('counts as referred once a referrer handle exists or the status is already_referred (SPEC §4)', () => {
    expect(referrerOf(undefined)).toEqual({ referred: false, handle: null });
    expect(referrerOf({ status: 'not_referred', referrerHandle: null })).toEqual({
      referred: false,
      handle: null,
    });
    expect(referrerOf({ status: 'already_referred', referrerHandle: null })).toEqual({
      referred: true,
      handle: null,
    });
    expect(referrerOf({ status: 'not_referred', referrerHandle: 'bob' })).toEqual({
      referred: true,
      handle: 'bob',
    });
  });
});
