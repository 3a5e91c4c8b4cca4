import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rulesDraftRequestSchema, type ProgrammeRulesView } from '@manaboard/contract/admin';
import { CSRF_HEADER } from '../../../config/constants';
import { fetchAdminSession, setAdminCsrfToken } from '../../../lib/admin-api';
import {
  adminSessionAnswer,
  fakeReferralService,
  json,
  requestsTo,
} from '../../../test/fake-referral-service';
import { renderWithProviders } from '../../../test/render-with-providers';
import { RulesSection } from './rules-section';

const session = adminSessionAnswer();

const rules: ProgrammeRulesView = {
  keywords: ['manaboard'],
  hashtags: ['ManaBoard', 'EarnMana'],
  officialHandles: ['ManaboardHQ', 'ManaboardDev'],
  weights: { like: 1, reply: 2, repost: 2, quote: 3 },
  linkedMultiplier: 3,
  dailyLimit: 5,
  refreshWindowDays: 7,
  referralReward: 50,
  interactionRewards: { like: 1, reply: 3, repost: 2 },
  settleAfterHours: 24,
  settleByHours: 72,
  minAccountAgeDays: 30,
  minFollowers: 10,
  reservedHandles: ['support_desk'],
};
const query = 'manaboard OR #ManaBoard OR #EarnMana OR @ManaboardHQ OR @ManaboardDev -is:retweet';

/** The server's preview, as far as these tests need it: the daily limit checked, changes of it listed. */
const preview = ({ init }: { init: RequestInit }) => {
  const draft = rulesDraftRequestSchema.parse(JSON.parse(String(init.body))).rules as ProgrammeRulesView;
  const valid = draft.dailyLimit >= 1;
  return json({
    success: true,
    data: {
      currentVersion: 3,
      validation: {
        valid,
        fieldErrors: valid ? {} : { dailyLimit: ['Too small: expected number to be >=1'] },
        formErrors: [],
      },
      changes:
        valid && draft.dailyLimit !== rules.dailyLimit
          ? [{ field: 'dailyLimit', before: rules.dailyLimit, after: draft.dailyLimit }]
          : [],
      queries: valid
        ? [{ purpose: 'programme', text: query, length: query.length, maxLength: 512, withinLimit: true }]
        : [],
    },
  });
};
const versions = json({
  success: true,
  data: {
    current: 3,
    total: 3,
    versions: [
      {
        version: 3,
        source: 'console',
        createdAt: '2026-11-20T10:00:00.000Z',
        actor: 'admin:x:42:ManaboardHQ',
      },
      { version: 2, source: 'cli', createdAt: '2026-11-10T10:00:00.000Z', actor: 'operator' },
      { version: 1, source: 'file:programme.json', createdAt: '2026-11-01T10:00:00.000Z', actor: null },
    ],
  },
});
const routes = () => ({
  'GET /api/admin/session': session,
  'GET /api/admin/rules': json({ success: true, data: { version: 3, rules } }),
  'POST /api/admin/rules/preview': preview,
  'GET /api/admin/rules/versions': versions,
});

const mounted = (
  <Routes>
    <Route path="/admin/rules/*" element={<RulesSection />} />
  </Routes>
);

/** The problems shown for a control: the texts of the elements its aria-describedby names. */
const descriptionOf = (element: HTMLElement) =>
  (element.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

beforeEach(() => setAdminCsrfToken(null));
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the programme rules section', () => {
  it('loads the rules into the form and previews them: the network query against its limit', async () => {
    fakeReferralService(routes());
    renderWithProviders(mounted, '/admin/rules');
    expect(screen.getByText('Loading the rules…').getAttribute('role')).toBe('status');
    const limit = await screen.findByLabelText('Daily limit');
    expect((limit as HTMLInputElement).value).toBe('5');
    expect((screen.getByLabelText('Official accounts') as HTMLTextAreaElement).value).toBe(
      'ManaboardHQ\nManaboardDev',
    );
    expect((screen.getByLabelText('Reserved handles') as HTMLTextAreaElement).value).toBe('support_desk');
    expect((screen.getByLabelText('Points per quote') as HTMLInputElement).value).toBe('3');
    expect(screen.getByRole('group', { name: 'Referral gate' })).toBeTruthy();
    expect(await screen.findByText(`${query.length} / 512 characters`)).toBeTruthy();
    expect(screen.getByText(query)).toBeTruthy();
    expect(screen.getByText('No changes: this is version 3, the rules in force.')).toBeTruthy();
    expect(await screen.findByRole('link', { name: 'Changes in version 2' })).toBeTruthy();
  });

  it('previews an edit after a pause and shows the server’s problem by its field', async () => {
    const fetchMock = fakeReferralService(routes());
    renderWithProviders(mounted, '/admin/rules');
    const limit = await screen.findByLabelText('Daily limit');
    await screen.findByText(`${query.length} / 512 characters`);
    fireEvent.change(limit, { target: { value: '0' } });
    await waitFor(() => expect(limit.getAttribute('aria-invalid')).toBe('true'));
    expect(descriptionOf(limit)).toMatch(/Too small: expected number to be >=1/);
    const sent = requestsTo(fetchMock, 'POST /api/admin/rules/preview').at(-1);
    expect(sent?.body).toEqual({ rules: { ...rules, dailyLimit: 0 } });
    // The other fields carry no problem.
    expect(screen.getByLabelText('Linked multiplier').getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByText('The queries show once the draft is valid.')).toBeTruthy();
  });

  it('saves after a confirmation that says a new version is made and final Mana stays, with the CSRF header', async () => {
    const fetchMock = fakeReferralService({
      ...routes(),
      'POST /api/admin/rules': json({
        success: true,
        data: {
          version: 4,
          unchanged: false,
          changes: [{ field: 'dailyLimit', before: 5, after: 6 }],
          rules: { ...rules, dailyLimit: 6 },
          rescore: { flaggedAuthors: 0, repricedLines: 2, recomputedAuthors: 1 },
        },
      }),
    });
    await fetchAdminSession();
    renderWithProviders(mounted, '/admin/rules');
    const limit = await screen.findByLabelText('Daily limit');
    fireEvent.change(limit, { target: { value: '6' } });
    const changes = await screen.findByRole('list', { name: 'Changes against the rules in force' });
    expect(changes.textContent).toMatch(/Daily limit.*5.*→.*6/);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Save the programme rules?' });
    expect(dialog.textContent).toMatch(/makes version 4 of the rules/);
    expect(dialog.textContent).toMatch(/Mana that is already final is not rewritten/);
    expect(requestsTo(fetchMock, 'POST /api/admin/rules')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save new version' }));
    expect(await screen.findByText('Saved as version 4: it is in force now.')).toBeTruthy();
    const [save] = requestsTo(fetchMock, 'POST /api/admin/rules');
    expect(save?.headers.get(CSRF_HEADER)).toBe('admin-token');
    expect(rulesDraftRequestSchema.parse(save?.body)).toEqual({ rules: { ...rules, dailyLimit: 6 } });
  });

  it('opens a version’s changes from the list', async () => {
    fakeReferralService({
      ...routes(),
      'GET /api/admin/rules/versions/3/diff': json({
        success: true,
        data: {
          version: 3,
          previousVersion: 2,
          changes: [
            { field: 'dailyLimit', before: 4, after: 5 },
            {
              field: 'reservedHandles',
              before: [],
              after: ['support_desk'],
              added: ['support_desk'],
              removed: [],
            },
          ],
        },
      }),
    });
    renderWithProviders(mounted, '/admin/rules');
    const list = await screen.findByRole('list', { name: 'Versions of the rules, newest first' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(list.textContent).toMatch(/the rules file/);
    fireEvent.click(within(list).getByRole('link', { name: 'Changes in version 3' }));
    expect(await screen.findByRole('heading', { name: 'Version 3 of the rules' })).toBeTruthy();
    const diff = await screen.findByRole('list', { name: 'Changes from version 2 to 3' });
    expect(diff.textContent).toMatch(/Daily limit.*4.*→.*5/);
    expect(diff.textContent).toMatch(/Reserved handles.*Added: support_desk/);
  });

  it('says when the rules cannot be loaded, and Retry loads them', async () => {
    fakeReferralService({
      ...routes(),
      // The query client tries once more before it shows the failure.
      'GET /api/admin/rules': [
        json({ success: false, error: 'Something went wrong' }, 500),
        json({ success: false, error: 'Something went wrong' }, 500),
        json({ success: true, data: { version: 3, rules } }),
      ],
    });
    renderWithProviders(mounted, '/admin/rules');
    const alert = await screen.findByText(/The rules could not be loaded: Something went wrong/, undefined, {
      timeout: 3000,
    });
    fireEvent.click(
      within(alert.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Retry' }),
    );
    expect(((await screen.findByLabelText('Daily limit')) as HTMLInputElement).value).toBe('5');
  });
});
