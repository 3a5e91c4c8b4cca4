import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok, requestsTo } from '../../../test/fake-referral-service';
import { card, registerCardTestLifecycle, serve, settle } from './linked-card.test-support';

const standing = (over: Record<string, unknown> = {}) =>
  ok({
    linked: true,
    disqualified: true,
    reason: 'Circular farming with three accounts',
    disqualifiedAt: '2026-11-20T12:00:00.000Z',
    canAppeal: true,
    appeal: null,
    ...over,
  });
const sent = {
  id: '7',
  text: 'These are my own posts, please look again.',
  createdAt: '2026-11-21T09:00:00.000Z',
  answer: null,
  answeredAt: null,
};

const field = () => screen.getByRole('textbox', { name: 'Your appeal' });
const sendButton = () => screen.getByRole('button', { name: /Send appeal|Sending/ });

registerCardTestLifecycle();

describe('the card of a disqualified member (issue 13)', () => {
  it('says so with the operator’s reason, instead of the ways to earn', async () => {
    serve({ 'GET /me/standing': standing() });
    card();
    await settle();
    expect(screen.getByRole('heading', { name: 'Your account is disqualified' })).toBeTruthy();
    expect(screen.getByText('Circular farming with three accounts')).toBeTruthy();
    expect(screen.getByText(/since 20 Nov 2026/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Apply Referral/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Unlink' })).toBeTruthy();
  });

  it('keeps the usual card for a member in good standing, and when the standing cannot be read', async () => {
    serve({ 'GET /me/standing': standing({ disqualified: false, reason: null, canAppeal: false }) });
    const first = card();
    await settle();
    expect(screen.queryByText('Your account is disqualified')).toBeNull();
    expect(screen.getByRole('button', { name: /Apply Referral/ })).toBeTruthy();
    first.unmount();
    serve({ 'GET /me/standing': fail(500, 'INTERNAL_ERROR') });
    card();
    await settle(5_000);
    expect(screen.queryByText('Your account is disqualified')).toBeNull();
    expect(screen.getByRole('button', { name: /Apply Referral/ })).toBeTruthy();
  });

  it('counts characters, refuses a too-short appeal without sending it, then sends one with CSRF', async () => {
    const fetchMock = serve({
      'GET /me/standing': [standing(), standing({ canAppeal: false, appeal: sent })],
      'POST /me/appeal': ok(sent),
    });
    card();
    await settle();
    expect(screen.getByText('0 / 500 characters')).toBeTruthy();
    fireEvent.change(field(), { target: { value: '  short  ' } });
    expect(screen.getByText('5 / 500 characters')).toBeTruthy();
    fireEvent.click(sendButton());
    await settle();
    expect(screen.getByText('Please write at least 10 characters.')).toBeTruthy();
    expect(field().getAttribute('aria-invalid')).toBe('true');
    expect(requestsTo(fetchMock, 'POST /me/appeal')).toHaveLength(0);

    fireEvent.change(field(), { target: { value: `  ${sent.text} ` } });
    expect(field().getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(sendButton());
    await settle();
    const [request] = requestsTo(fetchMock, 'POST /me/appeal');
    expect(request?.body).toEqual({ text: sent.text });
    expect(request?.headers.get('x-csrf-token')).toMatch(/^token-/);
    expect(screen.queryByRole('textbox', { name: 'Your appeal' })).toBeNull();
    const appeal = screen.getByRole('region', { name: 'Your appeal' });
    expect(appeal.textContent).toContain(sent.text);
    expect(appeal.textContent).toContain('Not answered yet');
  });

  it('shows the server’s refusal and a network failure under the field', async () => {
    serve({
      'GET /me/standing': standing(),
      'POST /me/appeal': [
        fail(409, 'CONFLICT', 'You have already sent an appeal.'),
        () => Promise.reject(new TypeError('Failed to fetch')),
      ],
    });
    card();
    await settle();
    fireEvent.change(field(), { target: { value: sent.text } });
    fireEvent.click(sendButton());
    await settle();
    expect(screen.getByText('You have already sent an appeal.')).toBeTruthy();
    fireEvent.click(sendButton());
    await settle();
    expect(screen.getByText(/Connection failed/)).toBeTruthy();
  });

  it('shows the operator’s answer on the card', async () => {
    serve({
      'GET /me/standing': standing({
        canAppeal: false,
        appeal: { ...sent, answer: 'We looked again: it stands.', answeredAt: '2026-11-22T10:00:00.000Z' },
      }),
    });
    card();
    await settle();
    const appeal = screen.getByRole('region', { name: 'Your appeal' });
    expect(appeal.textContent).toContain('Answer from the team · 22 Nov 2026');
    expect(appeal.textContent).toContain('We looked again: it stands.');
    expect(screen.queryByRole('button', { name: 'Send appeal' })).toBeNull();
  });
});
