import { useId, useState } from 'react';
import type { ApplyPhase } from '../hooks/use-apply-referral-flow';

type GetReferredFormProps = {
  connected: boolean;
  referredBy: { referred: boolean; handle: string | null };
  phase: ApplyPhase;
  onApply: (input: string) => void;
  /** The id of the apply error while one shows: the input is then invalid and described by it. */
  errorId?: string | undefined;
  /** A handle the deployment's network can have, for the placeholder (the network adapter's). */
  exampleHandle?: string;
};

function buttonText(referredBy: GetReferredFormProps['referredBy'], phase: ApplyPhase): string {
  if (referredBy.referred) return referredBy.handle ? `Referred by ${referredBy.handle}` : 'Referred';
  return phase === 'applying' ? 'Applying...' : 'Apply Referral';
}

/**
 * Get Referred (SPEC §2, §5): the input is disabled when not connected; Apply is disabled when not connected,
 * while applying, or once referred, when it reads "Referred by {handle}".
 */
export function GetReferredForm({
  connected,
  referredBy,
  phase,
  onApply,
  errorId,
  exampleHandle = 'mana_fan',
}: GetReferredFormProps) {
  const [value, setValue] = useState('');
  const inputId = useId();
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onApply(value);
      }}
    >
      <label
        htmlFor={inputId}
        className="mb-1 block text-xs font-semibold uppercase tracking-wider text-gold/90"
      >
        Get referred
      </label>
      <div className="flex flex-col gap-2">
        <input
          id={inputId}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          disabled={!connected}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={errorId}
          placeholder={`Referrer's handle, e.g. @${exampleHandle}`}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          className="w-full rounded-xl border border-white/15 bg-black/45 px-3 py-2 text-sm text-white placeholder:text-violet-200/50 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft disabled:opacity-50"
        />
        <button
          type="submit"
          disabled={!connected || phase === 'applying' || referredBy.referred}
          className="w-full truncate rounded-xl bg-gold px-3 py-2 text-sm font-bold text-ink hover:bg-amber-300 disabled:cursor-not-allowed disabled:bg-gold/40 disabled:text-ink/80 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
        >
          {buttonText(referredBy, phase)}
        </button>
      </div>
    </form>
  );
}
