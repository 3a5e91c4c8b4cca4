import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { fairnessFlagKindSchema, type FairnessFlagKind } from '@manaboard/contract/admin';
import { fairnessFlagsQueryOptions } from '../api/fairness';
import { FlagCard, kindLabel } from './flag-card';
import { MemberFlags } from './member-flags';
import { RecomputePanel } from './recompute-panel';
import { button, field, label } from './styles';

/**
 * Fairness signals: the detector's flags (rings, referral chains of fresh accounts, spikes), each with why and
 * the evidence, the operator's reviews, one member's flags, and a recompute on demand. Advice, never a penalty.
 */
export function FairnessSection() {
  const id = useId();
  const [kind, setKind] = useState<FairnessFlagKind | null>(null);
  const [memberId, setMemberId] = useState('');
  const memberRef = useRef<HTMLDivElement>(null);
  const list = useInfiniteQuery(fairnessFlagsQueryOptions(kind));
  const flags = list.data?.pages.flatMap((page) => page.data.flags) ?? [];
  const total = list.data?.pages[0]?.data.total ?? 0;
  return (
    <section aria-labelledby="fairness-heading" className="space-y-4">
      <h1 id="fairness-heading" className="text-2xl font-black">
        Fairness signals
      </h1>
      <p className="rounded-lg border border-gold/40 bg-gold/10 px-3 py-2 text-sm text-gold">
        Flags are advice for you to review, never an automatic penalty: nothing here changes anyone&apos;s
        Mana. Review what you concluded; disqualify from the member&apos;s page only if you decide to.
      </p>
      <RecomputePanel computedAt={list.data?.pages[0]?.data.computedAt} />
      <div className="max-w-xs space-y-1">
        <label htmlFor={`${id}-kind`} className={label}>
          Kind
        </label>
        <select
          id={`${id}-kind`}
          value={kind ?? ''}
          onChange={(event) => {
            const parsed = fairnessFlagKindSchema.safeParse(event.target.value);
            setKind(parsed.success ? parsed.data : null);
          }}
          className={field}
        >
          <option value="">All kinds</option>
          {fairnessFlagKindSchema.options.map((k) => (
            <option key={k} value={k}>
              {kindLabel[k]}
            </option>
          ))}
        </select>
      </div>
      {list.isPending ? (
        <p role="status">Loading the flags…</p>
      ) : list.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{list.error.message}</p>
          <button type="button" className={button} onClick={() => void list.refetch()}>
            Retry
          </button>
        </div>
      ) : flags.length === 0 ? (
        <p className="text-violet-200">
          {kind ? `No ${kindLabel[kind].toLowerCase()} flags stand.` : 'No flags stand.'} The detector found
          nothing to review{list.data.pages[0]?.data.computedAt ? '' : ' (it has not run yet)'}.
        </p>
      ) : (
        <>
          <ul className="space-y-3" aria-label="Flags, strongest first">
            {flags.map((flag) => (
              <FlagCard
                key={`${flag.kind}:${flag.subjectId}`}
                flag={flag}
                onShowMember={(subject) => {
                  setMemberId(subject);
                  // Focus moves (and the page scrolls) to the member's flags, for keyboard and screen reader users too.
                  memberRef.current?.focus();
                }}
              />
            ))}
          </ul>
          <p role="status" className="text-xs text-violet-200">
            Showing {flags.length} of {total} {total === 1 ? 'flag' : 'flags'}.
          </p>
          {list.hasNextPage ? (
            <button
              type="button"
              className={button}
              disabled={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
            >
              {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
            </button>
          ) : null}
        </>
      )}
      <div ref={memberRef} tabIndex={-1} className="outline-none">
        <MemberFlags memberId={memberId} onChange={setMemberId} />
      </div>
    </section>
  );
}
