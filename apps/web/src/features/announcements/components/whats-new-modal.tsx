import { useQuery } from '@tanstack/react-query';
import type { Announcement } from '@manaboard/contract';
import { Modal } from '../../../components/ui/modal';
import { announcementsQueryOptions } from '../api/get-announcements';
import { announcementErrorText } from './announcement-error';
import { formatLongDate } from './format-date';

type Props = { open: boolean; onClose: () => void };

/** What's New (SPEC §2): published announcements, newest first, in the shared modal shell. */
export function WhatsNewModal({ open, onClose }: Props) {
  return (
    <Modal open={open} onClose={onClose} title="What's New" closeOnBackdrop widthClass="max-w-xl">
      <AnnouncementsBody />
    </Modal>
  );
}

function AnnouncementsBody() {
  const query = useQuery(announcementsQueryOptions());
  if (query.isPending) {
    return (
      <p role="status" className="py-8 text-center text-violet-200">
        Loading announcements...
      </p>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="space-y-4 py-4 text-center">
        <p className="text-rose-300">{announcementErrorText(query.error)}</p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-full bg-violet-700 px-5 py-2 font-semibold text-white hover:bg-violet-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          Retry
        </button>
      </div>
    );
  }
  const published = query.data.announcements.filter((a) => a.status === 'published');
  if (published.length === 0) {
    return <p className="py-8 text-center text-violet-200">No updates available at this time.</p>;
  }
  return (
    <ul className="-mr-2 max-h-[400px] space-y-4 overflow-y-auto pr-2" aria-label="Announcements">
      {published.map((announcement) => (
        <AnnouncementEntry key={announcement.id} announcement={announcement} />
      ))}
    </ul>
  );
}

function AnnouncementEntry({ announcement }: { announcement: Announcement }) {
  return (
    <li className="rounded-xl border border-white/10 bg-dusk/70 p-4">
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
    </li>
  );
}
