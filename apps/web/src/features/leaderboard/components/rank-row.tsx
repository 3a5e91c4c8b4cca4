import { displayHandle, type ManaAuthor } from '@manaboard/contract';
import { formatCount, formatMana } from '../../../lib/format-mana';
import { AuthorAvatar } from './author-avatar';

/** Rank colours (SPEC §2): 1 gold, 2 grey, 3 orange. */
export function rankTone(rank: number): string {
  if (rank === 1) return 'text-gold';
  if (rank === 2) return 'text-slate-300';
  if (rank === 3) return 'text-orange-400';
  return 'text-violet-200/80';
}

export type NarrowColumn = 'mana' | 'posts';

type RankRowProps = {
  author: ManaAuthor;
  /** Under 640 px one column shows, Mana or Tracked Post; null shows both. */
  narrowColumn: NarrowColumn | null;
  own?: boolean;
  onOpenBreakdown: (author: ManaAuthor) => void;
};

/** One leaderboard row: global rank, avatar and handle, tracked posts, Mana (which opens its breakdown). */
export function RankRow({ author, narrowColumn, own = false, onOpenBreakdown }: RankRowProps) {
  const handle = displayHandle(author.authorName);
  return (
    <tr
      data-testid={own ? 'own-row' : 'rank-row'}
      className={`border-t border-white/5 ${own ? 'bg-mana/20' : 'hover:bg-white/5'}`}
    >
      <td
        className={`py-2.5 pl-1 pr-2 text-right sm:pl-3 font-black tabular-nums ${rankTone(author.rank)}`}
        data-rank={author.rank}
      >
        {author.rank}
      </td>
      <td className="px-1.5 py-2.5 sm:px-2">
        <div className="flex min-w-0 items-center gap-2.5">
          <AuthorAvatar handle={author.authorName} url={author.profileImageUrl} />
          <div className="min-w-0">
            <p className="truncate font-semibold text-white">
              {handle}
              {own ? (
                <span className="ml-2 rounded-full bg-gold px-1.5 py-0.5 text-[0.65rem] font-bold uppercase text-ink">
                  You
                </span>
              ) : null}
            </p>
            {author.displayName && author.displayName !== author.authorName ? (
              <p className="truncate text-xs text-violet-200/70">{author.displayName}</p>
            ) : null}
          </div>
        </div>
      </td>
      {narrowColumn !== 'mana' ? (
        <td className="px-2 py-2.5 text-right tabular-nums text-violet-100">
          {formatCount(author.totalPosts)}
          <span className="sr-only"> tracked posts</span>
        </td>
      ) : null}
      {narrowColumn !== 'posts' ? (
        <td className="py-1.5 pl-2 pr-3 text-right">
          <button
            type="button"
            onClick={() => onOpenBreakdown(author)}
            aria-label={`${formatMana(author.totalMana)} Mana: show the breakdown of ${handle}`}
            className="rounded-lg px-2 py-1 font-extrabold tabular-nums text-mana-soft underline decoration-mana/40 decoration-dotted underline-offset-4 hover:bg-mana/15 hover:text-white focus-visible:outline-2 focus-visible:outline-gold"
          >
            {formatMana(author.totalMana)}
          </button>
        </td>
      ) : null}
    </tr>
  );
}
