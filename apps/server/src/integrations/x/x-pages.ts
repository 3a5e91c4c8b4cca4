import type { NetworkPages } from '../../social/social-network';

/**
 * X's public pages for the records page (x.com, or the simulation's own pages under its origin): a reply or quote
 * is a post at `{base}/{handle}/status/{id}`; a like or repost has no page (null); an account's page is
 * `{base}/{handle}`, when its handle is known.
 */
export function xPages(base: string): NetworkPages {
  return {
    record: ({ kind, id, authorHandle }) =>
      (kind === 'reply' || kind === 'quote') && authorHandle
        ? `${base}/${encodeURIComponent(authorHandle)}/status/${encodeURIComponent(id)}`
        : null,
    profile: ({ handle }) => (handle ? `${base}/${encodeURIComponent(handle)}` : null),
  };
}
