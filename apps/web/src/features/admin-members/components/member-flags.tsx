import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { memberFlagsQueryOptions } from '../api/members';
import { formatWhen, link, panel } from './styles';

const kindName = { ring: 'Engagement ring', referral_chain: 'Referral chain', spike: 'Spike' } as const;

/**
 * The fairness signals about this member: each flag's kind, why, and whether an operator reviewed it. Advice
 * only: the evidence and the review are in the Fairness signals section, linked from here.
 */
export function MemberFlags({ memberId }: { memberId: string }) {
  const id = useId();
  const flags = useQuery(memberFlagsQueryOptions(memberId));
  return (
    <section aria-labelledby={`${id}-heading`} className={panel}>
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        Fairness flags
      </h2>
      {flags.isPending ? (
        <p role="status">Loading the flags…</p>
      ) : flags.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{flags.error.message}</p>
          <button type="button" className={link} onClick={() => void flags.refetch()}>
            Retry
          </button>
        </div>
      ) : flags.data.data.flags.length === 0 ? (
        <p className="text-sm">No flag stands about this member.</p>
      ) : (
        <>
          <ul className="space-y-2 text-sm">
            {flags.data.data.flags.map((flag) => (
              <li key={flag.kind} className="space-y-1">
                <p>
                  <strong>{kindName[flag.kind]}</strong>{' '}
                  <span className="text-violet-200">
                    · since <time dateTime={flag.firstFlaggedAt}>{formatWhen(flag.firstFlaggedAt)}</time> ·{' '}
                    {flag.review ? `reviewed by ${flag.review.by}` : 'not reviewed'}
                  </span>
                </p>
                <p className="break-words">{flag.reason}</p>
                {flag.review ? <p className="text-violet-100">Review: {flag.review.note}</p> : null}
              </li>
            ))}
          </ul>
          <p className="text-sm">
            <Link to="/admin/fairness" className={link}>
              Evidence and reviews in Fairness signals
            </Link>{' '}
            <span className="text-violet-200">(advice only: nothing here changes their Mana)</span>
          </p>
        </>
      )}
    </section>
  );
}
