import { APPEAL_MAX_CHARS, APPEAL_MIN_CHARS } from '@manaboard/contract';
import { useId, useState } from 'react';

type AppealFormProps = {
  sending: boolean;
  /** The server's refusal or a network failure, shown under the text and announced. */
  error: string | null;
  onSend: (text: string) => void;
};

/**
 * The one appeal a disqualified member may send: a labelled text area with a live character count, checked here
 * against the contract's bounds (10–500 after trimming) before it is sent; errors are tied to the field.
 */
export function AppealForm({ sending, error, onSend }: AppealFormProps) {
  const [text, setText] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const fieldId = useId();
  const countId = useId();
  const errorId = useId();
  const length = text.trim().length;
  const shownError = tooShort ? `Please write at least ${APPEAL_MIN_CHARS} characters.` : error;
  return (
    <form
      noValidate
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        if (length < APPEAL_MIN_CHARS) {
          setTooShort(true);
          return;
        }
        onSend(text.trim());
      }}
    >
      <label htmlFor={fieldId} className="text-xs font-semibold uppercase tracking-wider text-gold/90">
        Your appeal
      </label>
      <textarea
        id={fieldId}
        value={text}
        rows={3}
        maxLength={APPEAL_MAX_CHARS}
        onChange={(event) => {
          setText(event.target.value);
          setTooShort(false);
        }}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={shownError ? `${countId} ${errorId}` : countId}
        placeholder="Tell the team why you think this is a mistake."
        className="w-full resize-none rounded-xl border border-white/15 bg-black/45 px-3 py-2 text-sm text-white placeholder:text-violet-200/50 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft"
      />
      <p id={errorId} aria-live="polite" className="text-xs text-rose-300">
        {shownError}
      </p>
      <div className="flex items-center justify-between gap-2 text-xs">
        <span id={countId} className="text-violet-100/80">
          {length} / {APPEAL_MAX_CHARS} characters
        </span>
        <button
          type="submit"
          disabled={sending}
          className="rounded-xl bg-gold px-3 py-1.5 text-sm font-bold text-ink hover:bg-amber-300 disabled:cursor-not-allowed disabled:bg-gold/40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {sending ? 'Sending…' : 'Send appeal'}
        </button>
      </div>
    </form>
  );
}
