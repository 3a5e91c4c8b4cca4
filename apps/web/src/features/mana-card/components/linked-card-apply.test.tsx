import { errorMessages } from '@manaboard/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, requestsTo } from '../../../test/fake-referral-service';
import { registerCardTestLifecycle, card, notReferred, serve, settle } from './linked-card.test-support';

const input = () => screen.getByLabelText('Get referred');
const applyButton = () => screen.getByRole('button', { name: /Apply Referral|Applying|Referred by/ });

/** The apply error the input points at (aria-describedby) while one shows, else null. */
function applyError(): HTMLElement | null {
  const id = input().getAttribute('aria-describedby');
  return id ? document.getElementById(id) : null;
}

/** An error is shown once, marked on the input, and heard once: inside the card's one live region, no role. */
function expectApplyError(message: string) {
  expect(applyError()?.textContent).toBe(message);
  expect(input().getAttribute('aria-invalid')).toBe('true');
  expect(screen.getAllByText(message)).toHaveLength(1);
  expect(applyError()?.getAttribute('role')).toBeNull();
  expect(applyError()?.closest('[aria-live="polite"]')).not.toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
}

function expectNoApplyError() {
  expect(applyError()).toBeNull();
  expect(input().getAttribute('aria-invalid')).toBeNull();
}

function applyHandle(handle: string) {
  fireEvent.change(input(), { target: { value: handle } });
  fireEvent.click(applyButton());
}

registerCardTestLifecycle();

describe('LinkedCard: Get Referred (SPEC §4 apply flow, §5, §8)', () => {
  it('refuses an empty handle without a call: "Please enter a referrer handle."', async () => {
    const fetchMock = serve();
    card();
    await settle();
    applyHandle('   ');
    expectApplyError('Please enter a referrer handle.');
    await settle();
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(0);
  });

  it('applies: "Applying...", a success message, then account and status refreshed after 1 s', async () => {
    let release: (response: Response) => void = () => undefined;
    const fetchMock = serve({
      'POST /referrals/apply': () => new Promise<Response>((resolve) => (release = resolve)),
      'GET /referrals/status': [notReferred, ok({ status: 'already_referred', referrerHandle: 'bob' })],
    });
    card();
    await settle();
    applyHandle(' @Bob ');
    await settle();
    expect(applyButton().textContent).toBe('Applying...');
    expect((applyButton() as HTMLButtonElement).disabled).toBe(true);
    expect(requestsTo(fetchMock, 'POST /referrals/apply')[0]?.body).toEqual({ referrerHandle: 'Bob' });
    expect(requestsTo(fetchMock, 'POST /referrals/apply')[0]?.headers.get('X-CSRF-Token')).toBe('token-1');

    release(new Response(JSON.stringify({ ok: true, data: { referrerHandle: 'bob' }, error: null })));
    await settle(0);
    const success = screen.getByText(/@bob is now your referrer/);
    expect(success.getAttribute('role')).toBeNull();
    expect(success.closest('[aria-live="polite"]')).not.toBeNull();
    expectNoApplyError();
    const accountCalls = requestsTo(fetchMock, 'GET /me/account').length;
    await settle(980);
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(1);
    await settle(30);
    expect(requestsTo(fetchMock, 'GET /me/account').length).toBeGreaterThan(accountCalls);
    expect(requestsTo(fetchMock, 'GET /referrals/status')).toHaveLength(2);
    expect(applyButton().textContent).toBe('Referred by bob');
    expect((applyButton() as HTMLButtonElement).disabled).toBe(true);
  });

  it.each([
    ['SELF_REFERRAL', fail(400, 'SELF_REFERRAL', 'You cannot refer yourself.'), errorMessages.SELF_REFERRAL],
    ['INVALID_REFERRER', fail(400, 'INVALID_REFERRER', 'nope'), errorMessages.INVALID_REFERRER],
    ['ALREADY_REFERRED', fail(409, 'ALREADY_REFERRED', 'nope'), errorMessages.ALREADY_REFERRED],
    ['HANDLE_RESERVED', fail(400, 'HANDLE_RESERVED', 'nope'), errorMessages.HANDLE_RESERVED],
    ['REQUIRES_VERIFICATION', fail(403, 'REQUIRES_VERIFICATION', 'x'), errorMessages.REQUIRES_VERIFICATION],
    ['a 429', fail(429, 'RATE_LIMIT_EXCEEDED', 'slow'), errorMessages.RATE_LIMIT],
    ['a 401', fail(401, 'UNAUTHORIZED', 'who'), errorMessages.UNAUTHORIZED],
    [
      'referee_unverified text',
      new Response(JSON.stringify({ success: false, error: 'referee_unverified' }), { status: 403 }),
      errorMessages.NOT_CONNECTED,
    ],
  ])('maps %s to its message, shown for 5 s', async (_name, answer, message) => {
    serve({ 'POST /referrals/apply': answer });
    card();
    await settle();
    applyHandle('bob');
    await settle();
    expectApplyError(message);
    expect(applyButton().textContent).toBe('Apply Referral');
    await settle(4980);
    expectApplyError(message);
    await settle(30);
    expectNoApplyError();
    expect(screen.queryByText(message)).toBeNull();
  });

  it('while an error shows, pressing Apply only dismisses it', async () => {
    const fetchMock = serve({ 'POST /referrals/apply': fail(400, 'SELF_REFERRAL') });
    card();
    await settle();
    applyHandle('alice');
    await settle();
    expectApplyError(errorMessages.SELF_REFERRAL);
    fireEvent.click(applyButton());
    await settle();
    expectNoApplyError();
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(1);
    fireEvent.click(applyButton());
    await settle();
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(2);
  });

  it('reports success when a retry meets ALREADY_REFERRED from its own lost first attempt', async () => {
    serve({
      'POST /referrals/apply': [
        () => Promise.reject(new TypeError('Failed to fetch')),
        fail(409, 'ALREADY_REFERRED'),
      ],
      'GET /referrals/status': [notReferred, ok({ status: 'already_referred', referrerHandle: 'bob' })],
    });
    card();
    await settle();
    applyHandle('bob');
    await settle(1100);
    expect(screen.getByText(/@bob is now your referrer/)).toBeTruthy();
    expectNoApplyError();
  });

  it('retries a failing apply 3 times on network failure (1 s, 2 s)', async () => {
    const fetchMock = serve({
      'POST /referrals/apply': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    card();
    await settle();
    applyHandle('bob');
    await settle(2999);
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(2);
    await settle(10);
    expect(requestsTo(fetchMock, 'POST /referrals/apply')).toHaveLength(3);
    expectApplyError(errorMessages.NETWORK_ERROR);
  });
});
