import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Announcement } from '@manaboard/contract';
import type { AdminAnnouncementAction } from '@manaboard/contract/admin';
import { ConfirmDialog, type ConfirmRequest } from '../../../components/ui/confirm-dialog';
import { formatLongDate } from '../../../lib/format-date';
import {
  adminAnnouncementKeys,
  adminAnnouncementsQueryOptions,
  announcementAction,
  deleteDraft,
} from '../api/announcements';
import { StatusBadge } from './status-badge';

type Act = { announcement: Announcement; action: AdminAnnouncementAction | 'delete' };

const questions: Record<Act['action'], (title: string) => Omit<ConfirmRequest, 'onConfirm'>> = {
  publish: (t) => ({
    title: 'Publish?',
    body: `“${t}” will show in What's New for everyone.`,
    confirmLabel: 'Publish',
  }),
  unpublish: (t) => ({
    title: 'Unpublish?',
    body: `“${t}” leaves What's New and goes back to drafts.`,
    confirmLabel: 'Unpublish',
  }),
  archive: (t) => ({
    title: 'Archive?',
    body: `“${t}” leaves What's New and is kept in the archive.`,
    confirmLabel: 'Archive',
  }),
  delete: (t) => ({
    title: 'Delete draft?',
    body: `The draft “${t}” is deleted for good.`,
    confirmLabel: 'Delete',
    danger: true,
  }),
};
const done: Record<Act['action'], string> = {
  publish: 'Published',
  unpublish: 'Moved back to drafts',
  archive: 'Archived',
  delete: 'Deleted',
};

const button =
  'rounded-full border border-white/20 px-3 py-1 text-xs font-semibold text-white hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';

/** Section 1's list: every announcement with its status and the actions its status allows, each confirmed. */
export function AnnouncementsList() {
  const client = useQueryClient();
  const list = useQuery(adminAnnouncementsQueryOptions());
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [message, setMessage] = useState('');
  const act = useMutation({
    mutationFn: ({ announcement, action }: Act) =>
      action === 'delete' ? deleteDraft(announcement.id) : announcementAction(announcement.id, action),
    onSuccess: (_data, { announcement, action }) => setMessage(`${done[action]}: “${announcement.title}”.`),
    onError: (error) => setMessage(error.message),
    onSettled: () => client.invalidateQueries({ queryKey: adminAnnouncementKeys.all }),
  });
  const ask = (announcement: Announcement, action: Act['action']) =>
    setConfirm({
      ...questions[action](announcement.title),
      onConfirm: () => act.mutate({ announcement, action }),
    });

  return (
    <section aria-labelledby="announcements-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="announcements-heading" className="text-2xl font-black">
          Announcements
        </h1>
        <Link
          to="new"
          className="rounded-full bg-violet-700 px-4 py-2 text-sm font-bold hover:bg-violet-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          New announcement
        </Link>
      </div>
      <p role="status" className="min-h-[1.25rem] text-sm text-emerald-200">
        {message}
      </p>
      {list.isPending ? (
        <p role="status">Loading announcements…</p>
      ) : list.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{list.error.message}</p>
          <button type="button" className={button} onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : list.data.announcements.length === 0 ? (
        <p className="text-violet-200">No announcements yet. Write the first one.</p>
      ) : (
        <ul className="space-y-3" aria-label="All announcements">
          {list.data.announcements.map((a) => (
            <li
              key={a.id}
              className="flex flex-col gap-3 rounded-xl border border-white/10 bg-dusk/70 p-4 lg:flex-row lg:items-center lg:justify-between"
            >
              <div className="min-w-0 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={a.status} />
                  <time dateTime={a.createdAt} className="text-xs text-violet-200">
                    {formatLongDate(a.createdAt)}
                  </time>
                </div>
                <h2 className="break-words text-base font-semibold">{a.title}</h2>
              </div>
              <div className="flex flex-wrap gap-2" aria-label={`Actions for ${a.title}`} role="group">
                <Link to={a.id} className={button}>
                  Edit<span className="sr-only"> {a.title}</span>
                </Link>
                {a.status !== 'published' ? (
                  <button
                    type="button"
                    className={button}
                    disabled={act.isPending}
                    onClick={() => ask(a, 'publish')}
                  >
                    Publish
                  </button>
                ) : (
                  <button
                    type="button"
                    className={button}
                    disabled={act.isPending}
                    onClick={() => ask(a, 'unpublish')}
                  >
                    Unpublish
                  </button>
                )}
                {a.status !== 'archived' ? (
                  <button
                    type="button"
                    className={button}
                    disabled={act.isPending}
                    onClick={() => ask(a, 'archive')}
                  >
                    Archive
                  </button>
                ) : null}
                {a.status === 'draft' ? (
                  <button
                    type="button"
                    className={`${button} border-rose-300/50 text-rose-100`}
                    disabled={act.isPending}
                    onClick={() => ask(a, 'delete')}
                  >
                    Delete
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </section>
  );
}
