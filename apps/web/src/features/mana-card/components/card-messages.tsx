type Tone = 'success' | 'error';

type CardMessagesProps = {
  /** `id` lets the Get Referred input point at an apply error (aria-describedby). */
  apply: { tone: Tone; text: string; id: string } | null;
  clipboardError: string | null;
  statusError: string | null;
  onRetryStatus: () => void;
  unlinkError: string | null;
};

const toneClass: Record<Tone, string> = {
  success: 'text-emerald-300',
  error: 'text-rose-300',
};

/**
 * The card's messages, in one polite live region so screen readers hear each once as it appears: the
 * messages inside carry no role of their own (a role=alert/status inside would be a second region, read twice).
 */
export function CardMessages({
  apply,
  clipboardError,
  statusError,
  onRetryStatus,
  unlinkError,
}: CardMessagesProps) {
  return (
    <div aria-live="polite" className="min-h-[1.25rem] space-y-1 text-xs leading-snug">
      {apply ? (
        <p id={apply.id} className={toneClass[apply.tone]}>
          {apply.text}
        </p>
      ) : null}
      {clipboardError ? <p className={toneClass.error}>{clipboardError}</p> : null}
      {unlinkError ? <p className={toneClass.error}>{unlinkError}</p> : null}
      {statusError ? (
        <p className={`${toneClass.error} flex items-center gap-2`}>
          <span>{statusError}</span>
          <button
            type="button"
            onClick={onRetryStatus}
            className="rounded-full border border-rose-300/60 px-2 py-0.5 font-semibold hover:bg-rose-300/10 focus-visible:outline-2 focus-visible:outline-gold"
          >
            Retry
          </button>
        </p>
      ) : null}
    </div>
  );
}
