import { useQuery } from '@tanstack/react-query';
import { Modal } from '../../../components/ui/modal';
import { announcementsQueryOptions } from '../api/get-announcements';
import { announcementErrorText } from './announcement-error';
import { AnnouncementEntry } from '../../../components/announcement/announcement-entry';

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
