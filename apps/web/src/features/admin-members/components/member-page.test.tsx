import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MemberDetail } from '@manaboard/contract/admin';
import { fakeReferralService, json, networkDown, requestsTo } from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { alice, memberAnswer, mounted, registerMembersTestLifecycle } from './members-section.test-support';

registerMembersTestLifecycle();

describe('the Members section: a member’s page', () => {
  it('shows the member, their Mana lines, referrals both ways, appeals and history', async () => {
    const fetchMock = fakeReferralService({ 'GET /api/admin/members/1001': memberAnswer(alice) });
    renderWithProviders(mounted, '/admin/members/1001');
    expect(await screen.findByRole('heading', { name: '@alice', level: 1 })).toBeTruthy();
    expect(screen.getByText('Qualified')).toBeTruthy();
    expect(screen.getByText(/321 followers · 2 browsers/)).toBeTruthy();

    const mana = screen.getByRole('region', { name: 'Mana' });
    expect(mana.textContent).toContain('All-time total 57 Mana from 2 lines');
    expect(
      within(mana)
        .getByRole('link', { name: /^Post of/ })
        .getAttribute('href'),
    ).toBe('https://x.example/alice/status/p1');
    expect(within(mana).getByText('2 referrals')).toBeTruthy();

    const referrals = screen.getByRole('region', { name: 'Referrals' });
    expect(within(referrals).getByRole('link', { name: '@carol' }).getAttribute('href')).toBe(
      '/admin/members/3003',
    );
    const referred = within(referrals).getByRole('list', { name: 'Members they referred' });
    expect(
      within(referred)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('@dave · credited 12 Mana'), expect.stringContaining('@erin · void')]);
    expect(screen.getByRole('region', { name: 'Appeals' }).textContent).toContain('No appeals.');
    expect(screen.getByRole('region', { name: 'History' }).textContent).toContain('“Cleared after review”');
    expect(requestsTo(fetchMock, 'GET /api/admin/members/1001')).toHaveLength(1);
  });

  it('shows the fairness flags raised about the member, each saying why, with the way to their evidence', async () => {
    const flag = {
      subjectId: '1001',
      handle: 'alice',
      kind: 'ring',
      score: 1,
      reason: '100% of the engagement @alice received (19 of 19) came from a group of 6 accounts',
      evidence: { cluster: 6 },
      firstFlaggedAt: '2026-11-20T10:00:00.000Z',
      computedAt: '2026-11-24T10:00:00.000Z',
      review: { at: '2026-11-24T11:00:00.000Z', by: 'admin:@ManaboardHQ', note: 'Dismissed: school friends' },
    };
    const fetchMock = fakeReferralService({
      'GET /api/admin/members/1001': memberAnswer(alice),
      'GET /api/admin/fairness/members/1001': json({
        success: true,
        data: { subjectId: '1001', flags: [flag] },
      }),
    });
    renderWithProviders(mounted, '/admin/members/1001');
    const flags = await screen.findByRole('region', { name: 'Fairness flags' });
    await within(flags).findByText(flag.reason);
    expect(flags.textContent).toContain('Engagement ring');
    expect(flags.textContent).toContain('reviewed by admin:@ManaboardHQ');
    expect(flags.textContent).toContain('Review: Dismissed: school friends');
    expect(
      within(flags)
        .getByRole('link', { name: /Fairness signals/ })
        .getAttribute('href'),
    ).toBe('/admin/fairness');
    expect(requestsTo(fetchMock, 'GET /api/admin/fairness/members/1001')).toHaveLength(1);
  });

  it('says so when no flag stands about the member', async () => {
    fakeReferralService({
      'GET /api/admin/members/1001': memberAnswer(alice),
      'GET /api/admin/fairness/members/1001': json({ success: true, data: { subjectId: '1001', flags: [] } }),
    });
    renderWithProviders(mounted, '/admin/members/1001');
    const flags = await screen.findByRole('region', { name: 'Fairness flags' });
    await within(flags).findByText('No flag stands about this member.');
  });

  it('disqualifies with a required reason, confirmed, sending what the contract expects with the CSRF token', async () => {
    const disqualified: MemberDetail = {
      ...alice,
      disqualification: {
        disqualified: true,
        reason: 'Bought engagement from a ring',
        by: 'admin:@ManaboardHQ (42)',
        at: '2026-11-24T12:00:00.000Z',
      },
    };
    const fetchMock = fakeReferralService({
      'GET /api/admin/members/1001': [memberAnswer(alice), memberAnswer(disqualified)],
      'POST /api/admin/members/qualification': json({
        success: true,
        data: { authorId: '1001', handle: 'alice', referralsChanged: 1 },
      }),
    });
    renderWithProviders(mounted, '/admin/members/1001');
    const standing = await screen.findByRole('region', { name: 'Standing' });

    fireEvent.click(within(standing).getByRole('button', { name: 'Disqualify @alice' }));
    expect(within(standing).getByText('Write a reason of at least 3 characters.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.change(within(standing).getByLabelText(/Reason \(the member reads it on their card\)/), {
      target: { value: '  Bought engagement from a ring ' },
    });
    fireEvent.click(within(standing).getByRole('button', { name: 'Disqualify @alice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disqualify @alice?' });
    expect(dialog.textContent).toContain('“Bought engagement from a ring”');
    expect(requestsTo(fetchMock, 'POST /api/admin/members/qualification')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Disqualify' }));

    await waitFor(() => expect(within(standing).getByText('@alice is disqualified.')).toBeTruthy());
    const [call] = requestsTo(fetchMock, 'POST /api/admin/members/qualification');
    expect(call?.body).toEqual({
      handle: 'alice',
      disqualified: true,
      reason: 'Bought engagement from a ring',
    });
    expect(call?.headers.get('x-csrf-token')).toBe('admin-token');
    expect(call?.headers.has('x-user-id')).toBe(false);

    // The page is asked again and shows the new standing.
    await within(standing).findByRole('button', { name: 'Requalify @alice' });
    expect(standing.textContent).toContain('Disqualified by admin:@ManaboardHQ (42)');
    expect(within(standing).getByText('Bought engagement from a ring')).toBeTruthy();
    expect(screen.getAllByText('Disqualified').length).toBeGreaterThan(0);
    expect(requestsTo(fetchMock, 'GET /api/admin/members/1001')).toHaveLength(2);
  });

  it('shows why a disqualification failed and keeps the reason typed', async () => {
    fakeReferralService({
      'GET /api/admin/members/1001': memberAnswer(alice),
      'POST /api/admin/members/qualification': json(
        { success: false, error: 'No author with handle alice has been seen' },
        404,
      ),
    });
    renderWithProviders(mounted, '/admin/members/1001');
    const standing = await screen.findByRole('region', { name: 'Standing' });
    const reason = within(standing).getByLabelText(/Reason/);
    fireEvent.change(reason, { target: { value: 'Spam ring' } });
    fireEvent.click(within(standing).getByRole('button', { name: 'Disqualify @alice' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Disqualify' }));
    // The alert is always there (empty until a change fails): wait for its words, then check where they are.
    const said = await within(standing).findByText('No author with handle alice has been seen');
    expect(said.getAttribute('role')).toBe('alert');
    expect((reason as HTMLTextAreaElement).value).toBe('Spam ring');
  });

  it('says when no member has the id, and offers Retry when the server cannot be reached', async () => {
    fakeReferralService({
      'GET /api/admin/members/nobody': json({ success: false, error: 'No such member' }, 404),
      'GET /api/admin/members/1001': [networkDown, networkDown, memberAnswer(alice)],
    });
    const { unmount } = renderWithProviders(mounted, '/admin/members/nobody');
    expect((await screen.findByRole('alert', {}, { timeout: 4000 })).textContent).toContain(
      'No author or member has this id.',
    );
    unmount();
    renderWithProviders(mounted, '/admin/members/1001');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert.textContent).toMatch(/network/i);
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: '@alice', level: 1 })).toBeTruthy();
  });
});
