import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Announcement } from '@manaboard/contract';
import { adminAnnouncementEditSchema } from '@manaboard/contract/admin';
import { AnnouncementEntry } from '../../../components/announcement/announcement-entry';
import { ConfirmDialog, type ConfirmRequest } from '../../../components/ui/confirm-dialog';
import {
  adminAnnouncementKeys,
  adminAnnouncementsQueryOptions,
  createAnnouncement,
  editAnnouncement,
} from '../api/announcements';
import { AnnouncementFields, type Draft } from './announcement-fields';

/** The editor for a new announcement (`/admin/announcements/new`) or an existing one (`…/:id`). */
export function AnnouncementEditorRoute() {
  const { id } = useParams();
  const list = useQuery(adminAnnouncementsQueryOptions());
  if (!id || id === 'new') return <AnnouncementEditor existing={null} />;
  if (list.isPending) return <p role="status">Loading the announcement…</p>;
  if (list.isError)
    return (
      <p role="alert" className="text-rose-200">
        {list.error.message}
      </p>
    );
  const existing = list.data.announcements.find((a) => a.id === id);
  if (!existing) {
    return (
      <p role="alert">
        No announcement with this id.{' '}
        <Link to="/admin/announcements" className="underline">
          Back to the list
        </Link>
      </p>
    );
  }
  return <AnnouncementEditor key={existing.id} existing={existing} />;
}

/** Per-field problems from the contract's own schema, so the form says what the server would. */
function problemsOf(draft: Draft): Partial<Record<keyof Draft, string>> {
  const parsed = adminAnnouncementEditSchema.safeParse({ ...draft, url: draft.url.trim() || undefined });
  if (parsed.success) return {};
  const problems: Partial<Record<keyof Draft, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as keyof Draft;
    problems[field] ??= issue.message;
  }
  return problems;
}

function AnnouncementEditor({ existing }: { existing: Announcement | null }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const headingId = useId();
  const [draft, setDraft] = useState<Draft>({
    title: existing?.title ?? '',
    content: existing?.content ?? '',
    url: existing?.url ?? '',
  });
  const [tried, setTried] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const problems = problemsOf(draft);
  const valid = Object.keys(problems).length === 0;
  const body = {
    title: draft.title,
    content: draft.content,
    ...(draft.url.trim() ? { url: draft.url.trim() } : {}),
  };
  const save = useMutation({
    mutationFn: (publish: boolean) =>
      existing ? editAnnouncement(existing.id, body) : createAnnouncement({ ...body, publish }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: adminAnnouncementKeys.all });
      void navigate('/admin/announcements');
    },
  });
  const submit = (publish: boolean) => {
    setTried(true);
    if (!valid) return;
    if (!publish) return save.mutate(false);
    setConfirm({
      title: 'Publish now?',
      body: `“${draft.title}” will show in What's New for everyone.`,
      confirmLabel: 'Publish',
      onConfirm: () => save.mutate(true),
    });
  };
  const previewDate = existing?.createdAt ?? new Date().toISOString();

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <p>
        <Link
          to="/admin/announcements"
          className="text-sm text-violet-200 underline underline-offset-4 hover:text-white focus-visible:outline-2 focus-visible:outline-gold"
        >
          ← All announcements
        </Link>
      </p>
      <h1 id={headingId} className="text-2xl font-black">
        {existing ? 'Edit announcement' : 'New announcement'}
      </h1>
      <div className="grid gap-6 lg:grid-cols-2">
        <form
          noValidate
          aria-labelledby={headingId}
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            submit(false);
          }}
        >
          <AnnouncementFields draft={draft} onChange={setDraft} problems={tried ? problems : {}} />
          <p role="alert" className="min-h-[1.25rem] text-sm font-semibold text-rose-200">
            {save.error ? save.error.message : tried && !valid ? 'Please fix the fields marked above.' : ''}
          </p>
          <div className="flex flex-wrap gap-3">
            <button
              type="submit"
              disabled={save.isPending}
              className="rounded-full bg-violet-700 px-5 py-2 text-sm font-bold hover:bg-violet-600 disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
            >
              {save.isPending ? 'Saving…' : existing ? 'Save changes' : 'Save draft'}
            </button>
            {existing ? null : (
              <button
                type="button"
                disabled={save.isPending}
                onClick={() => submit(true)}
                className="rounded-full border border-gold/70 px-5 py-2 text-sm font-bold text-gold hover:bg-gold/10 disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
              >
                Save and publish
              </button>
            )}
          </div>
        </form>
        <section aria-label="Preview" className="space-y-2">
          <h2 className="text-sm font-bold uppercase tracking-wide text-gold">Preview in What's New</h2>
          <div className="rounded-2xl border border-mana/30 bg-night p-4">
            <AnnouncementEntry
              as="article"
              announcement={{
                title: draft.title.trim() || 'Title',
                content: draft.content.trim() || 'The text readers will see.',
                createdAt: previewDate,
                ...(draft.url.trim() ? { url: draft.url.trim() } : {}),
              }}
            />
          </div>
        </section>
      </div>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </section>
  );
}
