import { useId, useState } from 'react';
import type { BreakdownLine } from '@manaboard/contract';
import type { MemberDetail } from '@manaboard/contract/admin';
import { button, formatMana, formatWhen, link, panel } from './styles';

/** How many lines show before "Show all": an active author has hundreds. */
const FIRST_LINES = 15;

function describe(line: BreakdownLine) {
  switch (line.type) {
    case 'post':
      return {
        what: (
          <a href={line.url} className={link} target="_blank" rel="noreferrer">
            Post of {formatWhen(line.createdAt)}
          </a>
        ),
        detail: `${line.likes} likes · ${line.replies} replies · ${line.reposts} reposts · ${line.quotes} quotes, ×${line.multiplier}`,
        status: [line.status, line.final ? 'final' : 'open', line.overDailyLimit ? 'over daily limit' : null]
          .filter(Boolean)
          .join(', '),
      };
    case 'referral':
      return {
        what: line.refereeHandle ? `Referral of @${line.refereeHandle}` : `${line.count} referrals`,
        detail: line.at ? formatWhen(line.at) : '',
        status: 'credited',
      };
    case 'interaction':
      return {
        what: `A ${line.kind} on post ${line.postId}`,
        detail: `${formatWhen(line.at)}; reward ${line.reward}`,
        status: line.status,
      };
  }
}

/** All-time Mana, line by line (the public breakdown; for a disqualified author too). */
export function MemberBreakdown({ breakdown }: { breakdown: MemberDetail['breakdown'] }) {
  const id = useId();
  const [all, setAll] = useState(false);
  const lines = breakdown ? (all ? breakdown.lines : breakdown.lines.slice(0, FIRST_LINES)) : [];
  return (
    <section aria-labelledby={`${id}-heading`} className={panel}>
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        Mana
      </h2>
      {!breakdown ? (
        <p className="text-sm text-violet-200">Never tracked as an author: no Mana.</p>
      ) : (
        <>
          <p className="text-sm">
            All-time total{' '}
            <strong className="text-xl tabular-nums text-gold">{formatMana(breakdown.totalMana)}</strong> Mana
            from {breakdown.lines.length} {breakdown.lines.length === 1 ? 'line' : 'lines'}.
          </p>
          {lines.length > 0 ? (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Mana lines of this member</caption>
                <thead className="text-xs uppercase tracking-wide text-violet-100">
                  <tr>
                    <th scope="col" className="py-1 pr-3">
                      Line
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Status
                    </th>
                    <th scope="col" className="py-1 text-right">
                      Mana
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((line, index) => {
                    const { what, detail, status } = describe(line);
                    return (
                      <tr key={index} className="border-t border-white/10 align-top">
                        <td className="py-1.5 pr-3">
                          <span className="block">{what}</span>
                          <span className="block text-xs text-violet-200">{detail}</span>
                        </td>
                        <td className="py-1.5 pr-3 text-violet-100">{status}</td>
                        <td className="py-1.5 text-right tabular-nums">{formatMana(line.mana)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          ) : null}
          {breakdown.lines.length > FIRST_LINES ? (
            <button type="button" className={button} aria-expanded={all} onClick={() => setAll(!all)}>
              {all ? 'Show fewer lines' : `Show all ${breakdown.lines.length} lines`}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}
