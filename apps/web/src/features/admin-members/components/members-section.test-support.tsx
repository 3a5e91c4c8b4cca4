import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import type { MemberDetail, MemberSummary } from '@manaboard/contract/admin';
import { setAdminCsrfToken } from '../../../lib/admin-api';
import { json } from '../../../test/fake-referral-service';
import { MembersSection } from './members-section';

/** What the Members section's test files share: answers, member alice, and the section with a browser bar. */
export const found = (members: MemberSummary[]) =>
  json({ success: true, data: { members, total: members.length } });

export const summary = (handle: string, over: Partial<MemberSummary> = {}): MemberSummary => ({
  memberId: `id-${handle}`,
  handle,
  displayName: `${handle} Display`,
  tracked: true,
  linked: true,
  disqualified: false,
  mana: 120,
  rank: 3,
  ...over,
});

export const alice: MemberDetail = {
  memberId: '1001',
  profile: {
    handle: 'alice',
    displayName: 'Alice A',
    avatarUrl: null,
    firstTrackedAt: '2026-11-01T10:00:00.000Z',
  },
  account: {
    handle: 'alice',
    linkedAt: '2026-11-02T10:00:00.000Z',
    followers: 321,
    networkCreatedAt: '2020-01-01T00:00:00.000Z',
    browsers: 2,
  },
  breakdown: {
    authorId: '1001',
    authorName: 'Alice A',
    period: 'all',
    totalMana: 57,
    weights: { like: 1, reply: 3, repost: 2, quote: 4 },
    lines: [
      {
        type: 'post',
        postId: 'p1',
        url: 'https://x.example/alice/status/p1',
        createdAt: '2026-11-20T09:00:00.000Z',
        likes: 10,
        replies: 5,
        reposts: 2,
        quotes: 1,
        multiplier: 1,
        mana: 33,
        status: 'live',
        final: true,
        overDailyLimit: false,
      },
      { type: 'referral', refereeHandle: null, count: 2, mana: 24, at: '2026-11-21T09:00:00.000Z' },
    ],
  },
  referrals: {
    referredBy: {
      handle: 'carol',
      memberId: '3003',
      status: 'credited',
      rewardMana: 12,
      at: '2026-11-02T11:00:00.000Z',
    },
    referred: [
      {
        handle: 'dave',
        memberId: '4004',
        status: 'credited',
        rewardMana: 12,
        at: '2026-11-05T11:00:00.000Z',
      },
      { handle: 'erin', memberId: '5005', status: 'void', rewardMana: 0, at: '2026-11-06T11:00:00.000Z' },
    ],
  },
  disqualification: { disqualified: false, reason: null, by: null, at: null },
  appeals: [],
  history: [
    {
      at: '2026-11-03T08:00:00.000Z',
      actor: 'admin:@ManaboardHQ (42)',
      action: 'author.requalify',
      details: { reason: 'Cleared after review' },
    },
  ],
};
export const memberAnswer = (detail: MemberDetail) => json({ success: true, data: detail });

/** Where the router is, and a way back, as the browser's address bar and Back button would give. */
function Browser() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <p data-testid="location">{location.pathname + location.search}</p>
      <button type="button" onClick={() => void navigate(-1)}>
        Browser back
      </button>
    </>
  );
}

export const mounted = (
  <>
    <Routes>
      <Route path="/admin/members/*" element={<MembersSection />} />
    </Routes>
    <Browser />
  </>
);

/** The console's CSRF token for each test; cleared, with any stubbed global, after it. */
export function registerMembersTestLifecycle(): void {
  beforeEach(() => setAdminCsrfToken('admin-token'));
  afterEach(() => {
    setAdminCsrfToken(null);
    vi.unstubAllGlobals();
  });
}
