import type { AnnouncementStatus } from '@manaboard/contract';

const styles: Record<AnnouncementStatus, string> = {
  draft: 'border-amber-300/60 text-amber-200',
  published: 'border-emerald-300/60 text-emerald-200',
  archived: 'border-white/30 text-violet-200',
};

export function StatusBadge({ status }: { status: AnnouncementStatus }) {
  return (
    <span
      className={`inline-block rounded-full border px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${styles[status]}`}
    >
      {status}
    </span>
  );
}
