import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MemberSummary } from '@manaboard/contract/admin';
import { memberPath, memberSearchQueryOptions } from '../api/members';
import { QualificationBadge } from './qualification-badge';
import { button, formatMana, input, label, link, primaryButton } from './styles';

/**
 * Search by handle or name. The query lives in the URL (`?q=`), so back and forward return to earlier searches
 * and a search can be shared with another operator.
 */
export function MembersSearch() {
  const [params, setParams] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  return (
    <section aria-labelledby="members-heading" className="space-y-4">
      <h1 id="members-heading" className="text-2xl font-black">
        Members
      </h1>
      {/* Keyed by the query so the field follows back and forward. */}
      <SearchForm key={q} initial={q} onSearch={(next) => setParams(next ? { q: next } : {})} />
      {q ? (
        <SearchResults q={q} />
      ) : (
        <p className="text-violet-200">Search authors and linked members by handle or name.</p>
      )}
    </section>
  );
}

function SearchForm({ initial, onSearch }: { initial: string; onSearch: (q: string) => void }) {
  const [draft, setDraft] = useState(initial);
  const id = useId();
  return (
    <form
      role="search"
      aria-label="Search members"
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(draft.trim());
      }}
    >
      <div className="flex-1 space-y-1 sm:max-w-md">
        <label htmlFor={id} className={label}>
          Handle or name
        </label>
        <input
          id={id}
          name="q"
          type="search"
          maxLength={64}
          value={draft}
          placeholder="@handle"
          onChange={(event) => setDraft(event.target.value)}
          className={input}
        />
      </div>
      <button type="submit" className={`${primaryButton} self-start sm:self-auto`}>
        Search
      </button>
    </form>
  );
}

function SearchResults({ q }: { q: string }) {
  const search = useInfiniteQuery(memberSearchQueryOptions(q));
  if (search.isPending) return <p role="status">Searching…</p>;
  if (search.isError) {
    return (
      <div role="alert" className="space-y-2">
        <p className="text-rose-200">{search.error.message}</p>
        <button type="button" className={button} onClick={() => void search.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  const members = search.data.pages.flatMap((page) => page.data.members);
  const total = search.data.pages[0]?.data.total ?? 0;
  if (members.length === 0) {
    return (
      <p role="status" className="text-violet-200">
        No author or member matches “{q}”.
      </p>
    );
  }
  const caption = `Members matching “${q}”`;
  return (
    <>
      <p role="status" className="text-sm text-violet-200">
        {total === 1 ? '1 match' : `${total} matches`}
        {members.length < total ? `, showing ${members.length}` : ''}.
      </p>
      <ul className="space-y-3 lg:hidden" aria-label={caption}>
        {members.map((member) => (
          <MemberCard key={member.memberId} member={member} />
        ))}
      </ul>
      <div className="hidden overflow-x-auto rounded-xl border border-white/10 lg:block">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-dusk/80 text-xs uppercase tracking-wide text-violet-100">
            <tr>
              <th scope="col" className="px-3 py-2">
                Member
              </th>
              <th scope="col" className="px-3 py-2">
                Tracked / linked
              </th>
              <th scope="col" className="px-3 py-2">
                Standing
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Mana
              </th>
              <th scope="col" className="px-3 py-2 text-right">
                Rank
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.memberId} className="border-t border-white/10">
                <th scope="row" className="px-3 py-2 text-left font-normal">
                  <MemberName member={member} />
                </th>
                <td className="px-3 py-2 text-violet-100">{roles(member)}</td>
                <td className="px-3 py-2">
                  <QualificationBadge disqualified={member.disqualified} />
                </td>
                <td className="px-3 py-2 text-right tabular-nums">
                  {member.mana === null ? '—' : formatMana(member.mana)}
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{member.rank ? `#${member.rank}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {search.hasNextPage ? (
        <button
          type="button"
          className={button}
          disabled={search.isFetchingNextPage}
          onClick={() => void search.fetchNextPage()}
        >
          {search.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </>
  );
}

const roles = (m: MemberSummary) =>
  [m.tracked ? 'Tracked author' : null, m.linked ? 'Linked member' : null].filter(Boolean).join(' · ') || '—';

function MemberName({ member }: { member: MemberSummary }) {
  return (
    <span className="block min-w-0">
      <Link to={memberPath(member.memberId)} className={`${link} break-all`}>
        @{member.handle}
      </Link>
      {member.displayName ? (
        <span className="block break-words text-violet-200">{member.displayName}</span>
      ) : null}
    </span>
  );
}

/** A hit as a card on phones, where the five-column table cannot fit (below 1024 px, beside the navigation). */
function MemberCard({ member }: { member: MemberSummary }) {
  return (
    <li className="space-y-2 rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
      <div className="flex items-start justify-between gap-2">
        <MemberName member={member} />
        <QualificationBadge disqualified={member.disqualified} />
      </div>
      <p className="text-violet-100">{roles(member)}</p>
      <p className="text-violet-100">
        Mana{' '}
        <strong className="tabular-nums text-white">
          {member.mana === null ? '—' : formatMana(member.mana)}
        </strong>
        {member.rank ? <span className="tabular-nums"> · rank #{member.rank}</span> : null}
      </p>
    </li>
  );
}
