import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render-with-providers';
import { WhatsNewModal } from './whats-new-modal';

const announcement = (id: string, title: string, createdAt: string, url?: string) => ({
  id,
  title,
  content: `${title} body`,
  createdAt,
  status: 'published',
  ...(url ? { url } : {}),
});

function serve(body: unknown, init: ResponseInit = {}) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200, ...init }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('WhatsNewModal', () => {
  it('asks for page 1 of 50 and shows "Loading announcements..." meanwhile', async () => {
    let release: (r: Response) => void = () => undefined;
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (release = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(await screen.findByText('Loading announcements...')).toBeTruthy();
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe(
      '/api/public/announcements?page=1&limit=50',
    );
    release(new Response(JSON.stringify({ success: true, announcements: [], page: 1, limit: 50, total: 0 })));
    expect(await screen.findByText('No updates available at this time.')).toBeTruthy();
  });

  it('lists entries with title, content, long-form date and Learn More', async () => {
    serve({
      success: true,
      announcements: [
        announcement('a', 'Season two', '2026-11-22T09:00:00.000Z', 'https://example.org/s2'),
        announcement('b', 'Welcome', '2026-11-01T23:30:00.000Z'),
      ],
      page: 1,
      limit: 50,
      total: 2,
    });
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(await screen.findByRole('heading', { name: 'Season two' })).toBeTruthy();
    expect(screen.getByText('Season two body')).toBeTruthy();
    expect(screen.getByText('November 22, 2026')).toBeTruthy();
    expect(screen.getByText('November 1, 2026')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: /Learn More/ });
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://example.org/s2');
    expect(links[0]?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('list', { name: 'Announcements' }).className).toContain('max-h-[400px]');
    expect(screen.getByRole('list', { name: 'Announcements' }).className).toContain('overflow-y-auto');
    expect(links[0]?.getAttribute('target')).toBe('_blank');
  });

  it('shows only published entries, and the empty text when none is', async () => {
    serve({
      success: true,
      announcements: [{ ...announcement('d', 'Secret draft', '2026-11-20T09:00:00.000Z'), status: 'draft' }],
      page: 1,
      limit: 50,
      total: 1,
    });
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(await screen.findByText('No updates available at this time.')).toBeTruthy();
    expect(screen.queryByText('Secret draft')).toBeNull();
  });

  it.each([
    [
      { status: 500, statusText: 'Internal Server Error' },
      'Failed to load announcements: HTTP 500: Internal Server Error',
    ],
    [{ status: 400, statusText: 'Bad Request' }, 'Failed to load announcements: HTTP 400: Bad Request'],
  ])('shows the error text and a Retry that reloads (%o)', async (init, text) => {
    serve({ success: false, error: 'nope' }, init);
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(await screen.findByText(text)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says "Failed to load announcements: Network error" when the network fails, with Retry', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(await screen.findByText('Failed to load announcements: Network error')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('reports an unparsable body and an answer outside the contract', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>not json</html>', { status: 200 })),
    );
    const first = renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(await screen.findByText('Failed to load announcements: Invalid JSON response')).toBeTruthy();
    first.unmount();

    serve({ success: true, announcements: [{ id: 1 }], page: 1, limit: 50, total: 1 });
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    expect(
      await screen.findByText('Failed to load announcements: Unexpected response from server'),
    ).toBeTruthy();
  });

  it('shows "Request timeout. Please try again." after 10 s without an answer', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    renderWithProviders(<WhatsNewModal open onClose={() => undefined} />);
    await vi.advanceTimersByTimeAsync(10_000);
    await waitFor(() => expect(screen.getByText('Request timeout. Please try again.')).toBeTruthy());
  });

  it('closes on Esc and on a backdrop click', async () => {
    serve({ success: true, announcements: [], page: 1, limit: 50, total: 0 });
    const onClose = vi.fn();
    renderWithProviders(<WhatsNewModal open onClose={onClose} />);
    await screen.findByText('No updates available at this time.');
    expect(screen.getByRole('dialog', { name: "What's New" })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});
