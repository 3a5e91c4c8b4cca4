import type { LineRecord, RecordVoidReason } from '@manaboard/contract';
import { displayHandle } from '@manaboard/contract';
import { formatDateTime } from '../../../lib/format-mana';

const kindLabel: Record<LineRecord['kind'], string> = {
  like: 'Like',
  repost: 'Repost',
  reply: 'Reply',
  quote: 'Quote',
  referral: 'Referral',
};

/** Why a record counts nothing, as a member reads it. */
export const voidReasonText: Record<RecordVoidReason, string> = {
  deleted: 'deleted by its author',
  late: 'came after the post’s counts were final',
  duplicate: 'the same account’s second one: one counts',
  'post-deleted': 'the post is deleted',
  'post-protected': 'the post is no longer public',
  'over-daily-limit': 'the post is over the daily limit',
  undone: 'undone before the re-check',
  'official-post-deleted': 'the official post is deleted',
  unconfirmed: 'not confirmed in time',
  'referee-disqualified': 'the referee is disqualified',
  'referee-unlinked': 'the referee unlinked their account',
};

const link =
  'underline decoration-white/30 underline-offset-2 hover:text-white focus-visible:outline-2 focus-visible:outline-gold';

function State({ record }: { record: LineRecord }) {
  const base = 'rounded-full px-1.5 py-0.5 text-[0.65rem] font-bold uppercase tracking-wide';
  if (record.state === 'counted')
    return <span className={`${base} bg-emerald-500/20 text-emerald-300`}>Counted</span>;
  if (record.state === 'pending') {
    return (
      <span className={`${base} bg-amber-400/20 text-amber-200`}>
        Pending{record.dueAt ? ` · due by ${formatDateTime(record.dueAt)}` : ''}
      </span>
    );
  }
  return (
    <span className={`${base} bg-rose-500/20 text-rose-200`}>
      Void{record.reason ? `: ${voidReasonText[record.reason]}` : ''}
    </span>
  );
}

/** Who made it: their handle when the programme knows it, else their network id, linked to their page. */
function Author({ author }: { author: LineRecord['author'] }) {
  const name = author.handle ? displayHandle(author.handle) : (author.id ?? 'a member');
  if (!author.url) return <span className="break-all">{name}</span>;
  return (
    <a href={author.url} target="_blank" rel="noreferrer" className={`break-all ${link}`}>
      {name}
    </a>
  );
}

/**
 * One record of a line: its kind, author and time, its state (counted, pending with its due date, void with why),
 * a link to where a person sees it (the record's own page, or its author's when it has none: a like), and its
 * content hash (CID), shortened on screen and whole in its title.
 */
export function RecordItem({ record }: { record: LineRecord }) {
  return (
    <li className="space-y-1 border-t border-white/5 py-2 first:border-t-0" data-testid="line-record">
      <p className="flex flex-wrap items-center gap-x-1.5 gap-y-1 text-violet-50">
        <span className="font-semibold">{kindLabel[record.kind]}</span>
        <span aria-hidden="true">·</span>
        <Author author={record.author} />
        <span aria-hidden="true">·</span>
        <time dateTime={record.at} className="text-violet-200/80">
          {formatDateTime(record.at)}
        </time>
        <State record={record} />
      </p>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-violet-200/80">
        {record.url ? (
          <a href={record.url} target="_blank" rel="noreferrer" className={link}>
            {record.urlIsAuthor
              ? `Open ${record.kind === 'referral' ? 'the referee' : 'its author'}’s page`
              : 'Open the record'}
          </a>
        ) : null}
        {record.urlIsAuthor && record.kind !== 'referral' ? (
          <span>(a {record.kind} has no page of its own)</span>
        ) : null}
        {record.cid ? (
          <span className="min-w-0">
            CID{' '}
            <code title={record.cid} className="break-all font-mono text-[0.7rem] text-violet-100">
              {record.cid.length > 20 ? `${record.cid.slice(0, 14)}…${record.cid.slice(-6)}` : record.cid}
            </code>
          </span>
        ) : null}
        {record.source === 'appview' ? <span>read from the network’s lists</span> : null}
      </p>
    </li>
  );
}
