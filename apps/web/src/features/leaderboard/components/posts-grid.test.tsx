import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render-with-providers';
import { filterPosts } from '../lib/filter-posts';
import { community, post, queriesTo, serveBoard, settle } from '../../../test/leaderboard-fixtures';
import { PostsGrid } from './posts-grid';
import { X_WIDGETS_SRC } from '../../../networks/x/x-embed';

const allTime = { weekly: false, search: '' };
const realX = community({ success: true, data: { socialNetwork: 'x', simulated: false } });

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  Reflect.deleteProperty(window, 'twttr');
  document.head.querySelectorAll('script').forEach((script) => script.remove());
});

describe('PostsGrid (SPEC §2, §4, §5)', () => {
  it('draws native cards with the simulation: author, text, time, counts, Mana with pending/final, over the limit', async () => {
    const fetchMock = serveBoard({
      'GET /api/posts': community({
        success: true,
        data: [
          post(1, { overDailyLimit: true, mana: 0 }),
          post(2),
          post(3, { url: 'https://x.com/someone' }),
        ],
      }),
    });
    renderWithProviders(<PostsGrid filter={{ weekly: true, search: '' }} />);
    expect(screen.getByRole('status')).toBeTruthy();
    await settle();
    expect(queriesTo(fetchMock, '/api/posts')[0]?.toString()).toBe('limit=20&weekly=true');
    const cards = screen.getAllByTestId('post-card');
    // The third post's URL names no status id: skipped.
    expect(cards).toHaveLength(2);
    const first = within(cards[0] as HTMLElement);
    expect(first.getByText('@author_1')).toBeTruthy();
    expect(first.getByText('post number 1 #ManaBoard')).toBeTruthy();
    expect(first.getByText('1h')).toBeTruthy();
    expect(first.getByText('1,201')).toBeTruthy();
    expect(first.getByText('Pending')).toBeTruthy();
    expect(first.getByText('Over daily limit')).toBeTruthy();
    expect(within(cards[1] as HTMLElement).getByText('Final')).toBeTruthy();
    expect(within(cards[1] as HTMLElement).getByText('1,236')).toBeTruthy();
    expect(within(cards[1] as HTMLElement).queryByText('Over daily limit')).toBeNull();
    expect(screen.getByTestId('posts-grid').className).toMatch(
      /grid-cols-1 .*md:grid-cols-2 .*xl:grid-cols-3/,
    );
    expect(document.querySelector(`script[src="${X_WIDGETS_SRC}"]`)).toBeNull();
  });

  it('says "No posts found matching" a search, and "Error: Failed to fetch tweets" for a bad answer', async () => {
    serveBoard({ 'GET /api/posts': community({ success: true, data: [] }) });
    const view = renderWithProviders(<PostsGrid filter={{ weekly: false, search: 'zzz' }} />);
    await settle();
    expect(screen.getByText('No posts found matching "zzz"')).toBeTruthy();
    view.unmount();
    serveBoard({ 'GET /api/posts': community({ success: true, data: {} }) });
    renderWithProviders(<PostsGrid filter={allTime} />);
    await settle(1500);
    expect(screen.getByRole('alert').textContent).toBe('Error: Failed to fetch tweets');
  });

  it('with the real X uses its embed once valid (≥ 100 px tall)', async () => {
    const createTweet = vi.fn(async (_id: string, target: HTMLElement) => {
      target.getBoundingClientRect = () => ({ height: 320 }) as DOMRect;
    });
    serveBoard({
      'GET /api/public/config': realX,
      'GET /api/posts': community({ success: true, data: [post(2)] }),
    });
    renderWithProviders(<PostsGrid filter={allTime} />);
    await settle();
    expect(document.querySelector(`script[src="${X_WIDGETS_SRC}"]`)).not.toBeNull();
    window.twttr = { widgets: { createTweet } };
    await settle(100);
    await settle();
    expect(createTweet).toHaveBeenCalledWith(
      '5002',
      expect.any(HTMLElement),
      expect.objectContaining({ theme: 'dark' }),
    );
    expect(document.querySelector('[data-embed-state]')?.getAttribute('data-embed-state')).toBe('embedded');
    expect(screen.queryByTestId('post-card')).toBeNull();
  });

  it('falls back to the native card when the script never comes (50 tries, 100 ms apart)', async () => {
    serveBoard({
      'GET /api/public/config': realX,
      'GET /api/posts': community({ success: true, data: [post(2)] }),
    });
    renderWithProviders(<PostsGrid filter={allTime} />);
    await settle();
    expect(document.querySelector('[data-embed-state]')?.getAttribute('data-embed-state')).toBe('loading');
    await settle(4800);
    expect(document.querySelector('[data-embed-state]')?.getAttribute('data-embed-state')).toBe('loading');
    await settle(300);
    expect(document.querySelector('[data-embed-state]')?.getAttribute('data-embed-state')).toBe('fallback');
    expect(screen.getByTestId('post-card')).toBeTruthy();
  });

  it('falls back when the embed stays under 100 px for 15 s', async () => {
    window.twttr = {
      widgets: {
        createTweet: async (_id, target) => {
          target.getBoundingClientRect = () => ({ height: 99 }) as DOMRect;
        },
      },
    };
    serveBoard({
      'GET /api/public/config': realX,
      'GET /api/posts': community({ success: true, data: [post(2)] }),
    });
    renderWithProviders(<PostsGrid filter={allTime} />);
    await settle();
    await settle(14_700);
    expect(document.querySelector('[data-embed-state]')?.getAttribute('data-embed-state')).toBe('loading');
    await settle(400);
    expect(document.querySelector('[data-embed-state]')?.getAttribute('data-embed-state')).toBe('fallback');
    expect(screen.getByTestId('post-card')).toBeTruthy();
  });
});

describe('filterPosts (SPEC §5)', () => {
  const many = Array.from({ length: 30 }, (_, i) =>
    post(i + 1, { content: i % 3 === 0 ? 'about RUNES' : 'other' }),
  );

  it('keeps the list as sent without a search, or when every post matches', () => {
    expect(filterPosts(many, '')).toHaveLength(30);
    expect(filterPosts(many.slice(0, 1), 'rune')).toHaveLength(1);
  });

  it('filters by content or author name, case-insensitively, and cuts to 20', () => {
    const found = filterPosts(many, 'rune');
    expect(found.map((p) => p.id)).toEqual(many.filter((_, i) => i % 3 === 0).map((p) => p.id));
    expect(filterPosts(many, 'AUTHOR_1')).toHaveLength(11);
    const wide = [...many, ...many].map((p, i) => ({ ...p, id: String(i) }));
    expect(filterPosts([...wide, post(99, { content: 'x', authorName: 'y' })], 'author')).toHaveLength(20);
  });
});
