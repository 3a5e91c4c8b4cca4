import type { BreakdownLine, BreakdownResponse } from '@manaboard/contract';
import { formatCount, formatDateTime, formatMana } from '../../../lib/format-mana';
import { InteractionDetail, PostDetail, ReferralDetail } from './line-details';
import { LineRecords } from './line-records';

type Data = BreakdownResponse['data'];
type Section = { key: BreakdownLine['type']; title: string };

const sections: readonly Section[] = [
  { key: 'post', title: 'Posts' },
  { key: 'referral', title: 'Referrals' },
  { key: 'interaction', title: 'Interactions with official posts' },
];

const sum = (lines: readonly BreakdownLine[]) => lines.reduce((total, line) => total + line.mana, 0);

/** A line's detail and, for posts and interactions, the records behind it (opened on demand). */
function detailOf(line: BreakdownLine, data: Data) {
  if (line.type === 'post') {
    return (
      <>
        <PostDetail line={line} weights={data.weights} />
        <LineRecords
          target={{ authorId: data.authorId, line: 'post', post: line.postId }}
          label={`the post of ${formatDateTime(line.createdAt)}`}
        />
      </>
    );
  }
  if (line.type === 'referral') return <ReferralDetail line={line} />;
  return (
    <>
      <InteractionDetail line={line} />
      <LineRecords
        target={{ authorId: data.authorId, line: 'interaction', post: line.postId }}
        label={`the ${line.kind} of official post ${line.postId}`}
        only={line.kind}
      />
    </>
  );
}

const keyOf = (line: BreakdownLine, index: number) =>
  line.type === 'post'
    ? `post-${line.postId}`
    : line.type === 'interaction'
      ? `int-${line.postId}-${line.kind}`
      : `ref-${index}`;

/**
 * The lines in one table, grouped by kind with a subtotal each, and the total of all lines at the foot, beside
 * the figure the page showed (they differ only until the worker's next totals run).
 */
export function BreakdownLines({ data, figure }: { data: Data; figure: number }) {
  const total = sum(data.lines);
  if (data.lines.length === 0) {
    return <p className="py-6 text-center text-sm text-violet-200/80">No Mana in this period yet.</p>;
  }
  return (
    <table className="w-full border-collapse text-sm" data-testid="breakdown-table">
      <caption className="sr-only">Lines behind the Mana figure</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Line</th>
          <th scope="col">Mana</th>
        </tr>
      </thead>
      {sections.map((section) => {
        const lines = data.lines.filter((line) => line.type === section.key);
        if (lines.length === 0) return null;
        return (
          <tbody key={section.key} data-section={section.key}>
            <tr>
              <th
                scope="colgroup"
                colSpan={2}
                className="pb-1 pt-4 text-left text-xs font-bold uppercase tracking-wider text-gold/90"
              >
                {section.title} ({formatCount(lines.length)})
              </th>
            </tr>
            {lines.map((line, index) => (
              <tr key={keyOf(line, index)} className="border-t border-white/5 align-top">
                <td className="py-2 pr-3">{detailOf(line, data)}</td>
                <td
                  className="py-2 text-right font-bold tabular-nums text-white"
                  data-testid="line-mana"
                  data-mana={line.mana}
                >
                  {formatMana(line.mana)}
                </td>
              </tr>
            ))}
            {section.key === 'referral' ? (
              <tr>
                <td colSpan={2} className="pb-1">
                  <LineRecords target={{ authorId: data.authorId, line: 'referral' }} label="the referrals" />
                </td>
              </tr>
            ) : null}
            <tr className="border-t border-white/15">
              <td className="py-1.5 text-right text-xs uppercase tracking-wide text-violet-200/75">
                {section.title} subtotal
              </td>
              <td className="py-1.5 text-right font-bold tabular-nums text-violet-100">
                {formatMana(sum(lines))}
              </td>
            </tr>
          </tbody>
        );
      })}
      <tfoot>
        <tr className="border-t-2 border-gold/60">
          <th scope="row" className="py-3 text-left text-base font-extrabold text-white">
            Total
          </th>
          <td
            className="py-3 text-right text-xl font-black tabular-nums text-gold"
            data-testid="breakdown-total"
          >
            {formatMana(total)}
          </td>
        </tr>
        {total !== figure ? (
          <tr>
            <td colSpan={2} className="pb-1 text-xs text-amber-200">
              The leaderboard shows {formatMana(figure)}: it catches up with these lines at the next totals
              run.
            </td>
          </tr>
        ) : null}
      </tfoot>
    </table>
  );
}
