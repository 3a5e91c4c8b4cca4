import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { memberFairnessQueryOptions } from '../api/fairness';
import { FlagCard } from './flag-card';
import { button, field, label, primaryButton } from './styles';

/** One member's flags, by network user id (typed, or chosen from a flag in the list). */
export function MemberFlags({ memberId, onChange }: { memberId: string; onChange: (id: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(memberId);
  const [shown, setShown] = useState(memberId);
  if (memberId !== shown) {
    setShown(memberId);
    setDraft(memberId);
  }
  const flags = useQuery({ ...memberFairnessQueryOptions(memberId), enabled: memberId !== '' });
  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        A member&apos;s flags
      </h2>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          onChange(draft.trim());
        }}
      >
        <div className="min-w-0 flex-1 space-y-1">
          <label htmlFor={`${id}-member`} className={label}>
            Network user id
          </label>
          <input
            id={`${id}-member`}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            className={field}
            placeholder="e.g. 1500000000000000001"
          />
        </div>
        <button type="submit" className={primaryButton}>
          Show flags
        </button>
      </form>
      {memberId === '' ? null : flags.isPending ? (
        <p role="status">Loading the member&apos;s flags…</p>
      ) : flags.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{flags.error.message}</p>
          <button type="button" className={button} onClick={() => void flags.refetch()}>
            Retry
          </button>
        </div>
      ) : flags.data.data.flags.length === 0 ? (
        <p className="text-violet-200">No flags stand for {memberId}.</p>
      ) : (
        <ul className="space-y-3" aria-label={`Flags of ${memberId}`}>
          {flags.data.data.flags.map((flag) => (
            <FlagCard key={`${flag.kind}:${flag.subjectId}`} flag={flag} />
          ))}
        </ul>
      )}
    </section>
  );
}
