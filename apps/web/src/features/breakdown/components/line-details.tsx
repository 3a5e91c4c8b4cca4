import type { BreakdownLine, PostWeights } from '@manaboard/contract';
import { displayHandle } from '@manaboard/contract';
import { formatCount, formatDateTime } from '../../../lib/format-mana';

type PostLine = Extract<BreakdownLine, { type: 'post' }>;
type ReferralLine = Extract<BreakdownLine, { type: 'referral' }>;
type InteractionLine = Extract<BreakdownLine, { type: 'interaction' }>;

function Badge({ tone, children }: { tone: 'good' | 'wait' | 'bad' | 'muted'; children: string }) {
  const tones = {
    good: 'bg-emerald-500/20 text-emerald-300',
    wait: 'bg-amber-400/20 text-amber-200',
    bad: 'bg-rose-500/20 text-rose-200',
    muted: 'bg-white/10 text-violet-200',
  };
  return (
    <span
      className={`rounded-full px-1.5 py-0.5 text-[0.65rem] font-bold uppercase tracking-wide ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** A post: its date and link, each count × its weight, the multiplier, and its state. */
export function PostDetail({ line, weights }: { line: PostLine; weights: PostWeights }) {
  const terms = [
    [line.likes, 'likes', weights.like],
    [line.replies, 'replies', weights.reply],
    [line.reposts, 'reposts', weights.repost],
    [line.quotes, 'quotes', weights.quote],
  ] as const;
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-1.5">
        <a
          href={line.url}
          target="_blank"
          rel="noreferrer"
          className="font-semibold text-violet-50 underline decoration-white/30 underline-offset-2 hover:text-white focus-visible:outline-2 focus-visible:outline-gold"
        >
          Post of {formatDateTime(line.createdAt)}
        </a>
        <Badge tone={line.final ? 'good' : 'wait'}>{line.final ? 'Final' : 'Pending'}</Badge>
        {line.overDailyLimit ? <Badge tone="bad">Over daily limit: 0</Badge> : null}
        {line.status !== 'live' ? <Badge tone="muted">{line.status}</Badge> : null}
      </div>
      <p className="text-xs leading-relaxed text-violet-200/85">
        (
        {terms.map(([count, label, weight], index) => (
          <span key={label}>
            {index > 0 ? ' + ' : ''}
            {formatCount(count)} {label} × {weight}
          </span>
        ))}
        ) × {line.multiplier}
        {line.multiplier > 1 ? ' (linked)' : ''}
      </p>
    </div>
  );
}

/** A referral: named to the member themself, a count to everyone else. */
export function ReferralDetail({ line }: { line: ReferralLine }) {
  return (
    <div className="space-y-0.5">
      <p className="font-semibold text-violet-50">
        {line.refereeHandle
          ? `Referred ${displayHandle(line.refereeHandle)}`
          : `${formatCount(line.count)} referred ${line.count === 1 ? 'member' : 'members'}`}
      </p>
      {line.at ? <p className="text-xs text-violet-200/75">{formatDateTime(line.at)}</p> : null}
    </div>
  );
}

const kindLabel = { like: 'Like', reply: 'Reply', repost: 'Repost' } as const;

/** An interaction with an official post: pending (with its due dates), credited or void. */
export function InteractionDetail({ line }: { line: InteractionLine }) {
  const status = {
    pending: <Badge tone="wait">Pending</Badge>,
    credited: <Badge tone="good">Credited</Badge>,
    void: <Badge tone="bad">Void</Badge>,
  }[line.status];
  const when =
    line.status === 'pending'
      ? `Seen ${formatDateTime(line.at)} · due between ${formatDateTime(line.checkAfter)} and ${formatDateTime(line.settleBy)} · +${formatCount(line.reward)} if still there`
      : line.status === 'credited'
        ? `Credited ${formatDateTime(line.at)} (due by ${formatDateTime(line.settleBy)})`
        : `Void since ${formatDateTime(line.at)}: gone at its re-check`;
  return (
    <div className="space-y-0.5">
      <p className="flex flex-wrap items-center gap-1.5 font-semibold text-violet-50">
        {kindLabel[line.kind]} of official post {line.postId} {status}
      </p>
      <p className="text-xs text-violet-200/75">{when}</p>
    </div>
  );
}
