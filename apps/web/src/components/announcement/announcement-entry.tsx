import type { Announcement } from '@manaboard/contract';
import { formatLongDate } from '../../lib/format-date';

/**
 * One announcement as readers see it in What's New: title, date, text (line breaks kept) and the Learn More link.
 * The console's editor previews with the same component, so the preview is what readers will get.
 */
export function AnnouncementEntry({
  announcement,
  as: Tag = 'li',
}: {
  announcement: Pick<Announcement, 'title' | 'content' | 'createdAt' | 'url'>;
  as?: 'li' | 'article';
}) {
  return (
    <Tag className="rounded-xl border border-white/10 bg-dusk/70 p-4">
      <h3 className="text-lg font-semibold text-white">{announcement.title}</h3>
      <p className="mt-0.5 text-xs font-medium text-gold/90">
        <time dateTime={announcement.createdAt}>{formatLongDate(announcement.createdAt)}</time>
      </p>
      <p className="mt-2 whitespace-pre-line text-sm leading-relaxed text-violet-100/90">
        {announcement.content}
      </p>
      {announcement.url ? (
        <a
          href={announcement.url}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-3 inline-flex items-center gap-1 text-sm font-semibold text-mana-soft underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-mana-soft"
        >
          Learn More<span className="sr-only"> about {announcement.title} (opens in a new tab)</span>
          <span aria-hidden="true">→</span>
        </a>
      ) : null}
    </Tag>
  );
}
