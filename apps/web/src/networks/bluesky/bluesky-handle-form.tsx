import { useId, useState } from 'react';
import type { HandleFormProps } from '../handle-form-props';

/**
 * Bluesky sign-in starts from the member's handle (it names their server): a labelled input and a submit button
 * inside the card. The input takes focus when the form opens; a failure is shown under it, announced (alert) and
 * tied to the input (aria-describedby, aria-invalid). Escape or "Back" returns to the card.
 */
export function BlueskyHandleForm({ onSubmit, onCancel, error, busy, purpose = 'link' }: HandleFormProps) {
  const signIn = purpose === 'signIn';
  const [value, setValue] = useState('');
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  return (
    <form
      noValidate
      aria-label={signIn ? 'Sign in with Bluesky' : 'Link your Bluesky account'}
      className="m-auto flex w-full flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <img src="/art/mana-crystals.svg" alt="" width={240} height={200} className="mx-auto h-auto w-2/5" />
      <label htmlFor={inputId} className="text-center text-lg font-black uppercase tracking-wide text-gold">
        Your Bluesky handle
      </label>
      <p id={hintId} className="text-center text-sm leading-relaxed text-violet-100/90">
        Bluesky asks you to sign in on your own server, then sends you back here.
      </p>
      <input
        id={inputId}
        name="handle"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        // The form opens on the member's request: their next keystroke belongs here.
        autoFocus
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${errorId} ${hintId}` : hintId}
        placeholder="alice.bsky.social"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        className="w-full rounded-xl border border-white/15 bg-black/45 px-3 py-2 text-base text-white placeholder:text-violet-200/60 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft"
      />
      <p id={errorId} role="alert" className="min-h-[1.25rem] text-sm font-semibold text-rose-200">
        {error}
      </p>
      <button
        type="submit"
        disabled={busy}
        className="w-full rounded-full bg-violet-700 px-5 py-2 text-sm font-bold text-white shadow-lg shadow-mana/40 hover:bg-violet-600 disabled:cursor-wait disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
      >
        {busy
          ? signIn
            ? 'Signing in…'
            : 'Linking…'
          : signIn
            ? 'Sign in with Bluesky'
            : 'Link Bluesky account'}
      </button>
      {signIn ? null : (
        <button
          type="button"
          onClick={onCancel}
          className="mx-auto rounded-full px-4 py-1 text-sm font-semibold text-violet-100 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          Back
        </button>
      )}
    </form>
  );
}
