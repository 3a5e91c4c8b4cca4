/** The panel's loading spinner (our own art, SPEC §2): announced once as a polite status. */
export function BoardSpinner({ label = 'Loading leaderboard' }: { label?: string }) {
  return (
    <div role="status" className="flex justify-center py-12">
      <img src="/spinner-mana.svg" alt={label} width={56} height={56} className="h-14 w-14" />
    </div>
  );
}

/** An error line ("Error: {message}" or "Unknown error"). */
export function BoardError({ text }: { text: string }) {
  return (
    <p role="alert" className="py-10 text-center text-sm font-semibold text-rose-300">
      {text}
    </p>
  );
}

/** The exact empty texts of SPEC §2. */
export function BoardEmpty({ kind, search }: { kind: 'authors' | 'posts'; search: string }) {
  const text = search ? `No ${kind} found matching "${search}"` : `No ${kind} available`;
  return <p className="py-10 text-center text-sm text-violet-200/80">{text}</p>;
}
