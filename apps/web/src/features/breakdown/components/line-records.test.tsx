import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { LineRecord } from '@manaboard/contract';
import { renderWithProviders } from '../../../test/render-with-providers';
import { community, queriesTo, serveBoard, settle } from '../../../test/leaderboard-fixtures';
import { LineRecords } from './line-records';

const POST = 'at://did:plc:ann/app.bsky.feed.post/3kpost';
const record = (n: number, overrides: Partial<LineRecord> = {}): LineRecord => ({
  kind: 'like',
  uri: `at://did:plc:fan${n}/app.bsky.feed.like/3k${n}`,
  cid: `bafyreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy${n}`,
  author: { id: `did:plc:fan${n}`, handle: `fan${n}.example`, url: `https://example.org/profile/fan${n}` },
  at: new Date(Date.UTC(2026, 10, 18, 12, 0, 0) - n * 60_000).toISOString(),
  state: 'counted',
  reason: null,
  checkAfter: null,
  dueAt: null,
  source: 'stream',
  url: `https://example.org/profile/fan${n}`,
  urlIsAuthor: true,
  ...overrides,
});
const page = (n: number, records: LineRecord[], hasMore: boolean, notTraceable = 0) =>
  community({
    success: true,
    data: {
      authorId: '42',
      line: 'post',
      post: POST,
      page: n,
      limit: 50,
      hasMore,
      counts: { likes: 60 + notTraceable, replies: 1, reposts: 0, quotes: 0 },
      notTraceable: { likes: notTraceable, replies: 0, reposts: 0, quotes: 0 },
      records,
    },
  });

const target = { authorId: '42', line: 'post' as const, post: POST };

beforeEach(() => vi.useFakeTimers());

describe('LineRecords (the records behind a line)', () => {
  it('opens on demand, lists the records newest first with their state, CID and links, and loads more', async () => {
    const fetchMock = serveBoard({
      'GET /api/mana/42/records': ({ url }) =>
        url.searchParams.get('page') === '1'
          ? page(
              1,
              [
                record(1, {
                  kind: 'reply',
                  url: 'https://example.org/post/1',
                  urlIsAuthor: false,
                  source: 'appview',
                }),
                record(2, { state: 'void', reason: 'deleted' }),
              ],
              true,
              3,
            )
          : page(2, [record(3)], false, 3),
    });
    renderWithProviders(<LineRecords target={target} label="the post of 18 Nov" />);
    const button = screen.getByRole('button', { name: 'Records of the post of 18 Nov' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(queriesTo(fetchMock, '/api/mana/42/records')).toHaveLength(0);

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const region = screen.getByRole('region', { name: 'Records of the post of 18 Nov' });
    expect(button.getAttribute('aria-controls')).toBe(region.id);
    expect(within(region).getByRole('status').textContent).toBe('Loading records…');
    await settle();
    const asked = queriesTo(fetchMock, '/api/mana/42/records')[0];
    expect(Object.fromEntries(asked ?? [])).toEqual({ line: 'post', post: POST, page: '1', limit: '50' });

    const list = within(region).getByRole('list', { name: 'Records of the post of 18 Nov, newest first' });
    let items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toMatch(/^Reply·@fan1\.example·/);
    expect(
      within(items[0] as HTMLElement)
        .getByRole('link', { name: 'Open the record' })
        .getAttribute('href'),
    ).toBe('https://example.org/post/1');
    expect(within(items[0] as HTMLElement).getByText('read from the network’s lists')).toBeTruthy();
    expect(within(items[1] as HTMLElement).getByText('Void: deleted by its author')).toBeTruthy();
    const profile = within(items[1] as HTMLElement).getByRole('link', { name: 'Open its author’s page' });
    expect(profile.getAttribute('target')).toBe('_blank');
    expect(within(items[1] as HTMLElement).getByText('(a like has no page of its own)')).toBeTruthy();
    const cid = within(items[1] as HTMLElement).getByTitle(record(2).cid ?? '');
    expect(cid.textContent).toBe('bafyreigh2akis…s52zy2');
    expect(within(region).getByTestId('not-traceable').textContent).toMatch(/^3 likes not traceable/);

    fireEvent.click(within(region).getByRole('button', { name: 'Load more' }));
    await settle();
    items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(queriesTo(fetchMock, '/api/mana/42/records').map((q) => q.get('page'))).toEqual(['1', '2']);
    expect(within(region).queryByRole('button', { name: 'Load more' })).toBeNull();

    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('region')).toBeNull();
  });

  it('says so when a line has no records, and offers a retry when they cannot be read', async () => {
    let calls = 0;
    // The app's query client tries a failed read once more: two failures, then an empty page.
    serveBoard({
      'GET /api/mana/42/records': () =>
        ++calls <= 2 ? community({ success: false, error: 'database unavailable' }, 503) : page(1, [], false),
    });
    renderWithProviders(<LineRecords target={target} label="the post" />);
    fireEvent.click(screen.getByRole('button', { name: 'Records of the post' }));
    await settle(1500);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toMatch(/^Error: database unavailable/);
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await settle();
    expect(screen.getByText('No records behind this line.')).toBeTruthy();
    expect(screen.queryByTestId('not-traceable')).toBeNull();
  });

  it('keeps only the records of one kind for an interaction line', async () => {
    serveBoard({
      'GET /api/mana/42/records': page(
        1,
        [record(1, { kind: 'repost', state: 'pending', dueAt: '2026-11-21T11:00:00.000Z' }), record(2)],
        false,
      ),
    });
    renderWithProviders(
      <LineRecords
        target={{ authorId: '42', line: 'interaction', post: '900' }}
        label="the repost"
        only="repost"
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Records of the repost' }));
    await settle();
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(1);
    expect(items[0]?.textContent).toMatch(/Pending · due by/);
  });
});
