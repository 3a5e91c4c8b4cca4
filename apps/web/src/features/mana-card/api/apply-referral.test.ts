import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getBrowserId } from '../../../lib/browser-id';
import { fail, fakeReferralService, networkDown, ok, requestsTo } from '../../../test/fake-referral-service';
import { applyReferral } from './apply-referral';

const alreadyReferred = fail(409, 'ALREADY_REFERRED');
const referredBy = (referrerHandle: string) => ok({ status: 'already_referred', referrerHandle });

/** Runs an apply to its end under fake timers (the retry helper waits 1 s, then 2 s). */
async function settled(handle: string) {
  const outcome = applyReferral(handle).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await act(() => vi.advanceTimersByTimeAsync(5000));
  return outcome;
}

beforeEach(() => {
  vi.useFakeTimers();
  getBrowserId();
});
afterEach(() => localStorage.clear());

describe('applyReferral: a retry that meets its own earlier success', () => {
  it.each([
    ['a lost answer (network)', networkDown],
    ['a 5xx', fail(502, 'INTERNAL_ERROR')],
  ])('after %s, ALREADY_REFERRED by the same referrer is a success', async (_case, first) => {
    const fetchMock = fakeReferralService({
      'POST /referrals/apply': [first, alreadyReferred],
      'GET /referrals/status': referredBy('Bob'),
    });
    expect(await settled('@bob')).toEqual({ value: { referrerHandle: 'Bob' } });
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(2);
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(1);
  });

  it('stays ALREADY_REFERRED when the status names another referrer', async () => {
    fakeReferralService({
      'POST /referrals/apply': [networkDown, alreadyReferred],
      'GET /referrals/status': referredBy('carol'),
    });
    expect(await settled('bob')).toEqual({ error: expect.objectContaining({ code: 'ALREADY_REFERRED' }) });
  });

  it('stays ALREADY_REFERRED when the status cannot be read', async () => {
    fakeReferralService({
      'POST /referrals/apply': [networkDown, alreadyReferred],
      'GET /referrals/status': fail(401, 'UNAUTHORIZED'),
    });
    expect(await settled('bob')).toEqual({ error: expect.objectContaining({ code: 'ALREADY_REFERRED' }) });
  });

  it('takes a first-try ALREADY_REFERRED at its word, without reading the status', async () => {
    const fetchMock = fakeReferralService({
      'POST /referrals/apply': alreadyReferred,
      'GET /referrals/status': referredBy('bob'),
    });
    expect(await settled('bob')).toEqual({ error: expect.objectContaining({ code: 'ALREADY_REFERRED' }) });
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(0);
  });
});
