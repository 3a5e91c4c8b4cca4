import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { appealsQueryOptions, type AppealFilter } from '../api/appeals';
import { AppealCard } from './appeal-card';

const button =
  'rounded-full border border-white/20 px-4 py-1.5 text-sm font-semibold text-white hover:bg-white/10 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
const tab = (active: boolean) =>
  `rounded-full px-4 py-1.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold ${
    active ? 'bg-violet-700 text-white' : 'border border-white/20 text-violet-100 hover:bg-white/10'
  }`;

const filters: { value: AppealFilter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'all', label: 'All' },
];

/**
 * Section 4: members' appeals against a disqualification, open ones first (`?status=open|all` in the URL), each
 * answered with a text the member reads on their card. Requalifying is done on the member's page.
 */
export function AppealsSection() {
  const [params, setParams] = useSearchParams();
  const status: AppealFilter = params.get('status') === 'all' ? 'all' : 'open';
  const appeals = useQuery(appealsQueryOptions(status));
  const [done, setDone] = useState('');
  return (
    <section aria-labelledby="appeals-heading" className="space-y-4">
      <h1 id="appeals-heading" className="text-2xl font-black">
        Appeals
      </h1>
      <div role="group" aria-label="Which appeals" className="flex gap-2">
        {filters.map((f) => (
          <button
            key={f.value}
            type="button"
            aria-pressed={status === f.value}
            className={tab(status === f.value)}
            onClick={() => {
              setDone('');
              setParams(f.value === 'open' ? {} : { status: f.value });
            }}
          >
            {f.label}
          </button>
        ))}
      </div>
      <p role="status" className="text-sm text-emerald-200 empty:hidden">
        {done}
      </p>
      {appeals.isPending ? (
        <p role="status">Loading appeals…</p>
      ) : appeals.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{appeals.error.message}</p>
          <button type="button" className={button} onClick={() => void appeals.refetch()}>
            Retry
          </button>
        </div>
      ) : appeals.data.data.appeals.length === 0 ? (
        <p className="text-violet-200">
          {status === 'open'
            ? 'No open appeals: none is waiting for an answer.'
            : 'No member has appealed yet.'}
        </p>
      ) : (
        <ul
          className="space-y-3"
          aria-label={status === 'open' ? 'Open appeals, newest first' : 'All appeals, newest first'}
        >
          {appeals.data.data.appeals.map((appeal) => (
            <AppealCard key={appeal.id} appeal={appeal} onAnswered={setDone} />
          ))}
        </ul>
      )}
    </section>
  );
}
