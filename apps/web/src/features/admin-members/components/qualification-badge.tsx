/** Whether the member takes part (on the board, earning) or was disqualified by an operator. */
export function QualificationBadge({ disqualified }: { disqualified: boolean }) {
  return (
    <span
      className={`inline-block whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${
        disqualified ? 'border-rose-300/60 text-rose-200' : 'border-emerald-300/60 text-emerald-200'
      }`}
    >
      {disqualified ? 'Disqualified' : 'Qualified'}
    </span>
  );
}
