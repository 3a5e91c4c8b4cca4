import { displayHandle, type TrackedPost } from '@manaboard/contract';
import { formatCount, formatMana, relativeTime } from '../../../lib/format-mana';
import { AuthorAvatar } from './author-avatar';

const counts = [
  {
    key: 'likes',
    label: 'likes',
    icon: 'M10 17s-6-3.6-6-8a3.5 3.5 0 016-2.4A3.5 3.5 0 0116 9c0 4.4-6 8-6 8z',
  },
  { key: 'replies', label: 'replies', icon: 'M4 5h12v8H8l-4 3V5z' },
  { key: 'retweets', label: 'reposts', icon: 'M5 8l3-3 3 3M8 5v8h5M15 12l-3 3-3-3M12 15V7H7' },
  { key: 'quotes', label: 'quotes', icon: 'M6 7h3v3l-2 4M12 7h3v3l-2 4' },
] as const;

/**
 * A tracked post drawn by us (SPEC §2, §4): whenever X's embed is unavailable — the simulation, a blocked
 * script, an embed under 100 px. Author, text, time, the four counts, and its Mana with a pending or final
 * badge and an "over daily limit" mark.
 */
export function PostCard({ post }: { post: TrackedPost }) {
  const handle = displayHandle(post.authorName);
  return (
    <article
      aria-label={`Post by ${handle}`}
      data-testid="post-card"
      className="flex h-full flex-col gap-3 rounded-2xl border border-white/10 bg-dusk/80 p-4"
    >
      <header className="flex items-center gap-3">
        <AuthorAvatar handle={post.authorName} url={post.profileImageUrl} size="h-10 w-10 text-base" />
        <div className="min-w-0 flex-1">
          <p className="truncate font-bold text-white">{handle}</p>
          <a
            href={post.url}
            target="_blank"
            rel="noreferrer"
            className="text-xs text-violet-200/75 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-gold"
          >
            <time dateTime={post.createdAt} title={new Date(post.createdAt).toUTCString()}>
              {relativeTime(post.createdAt)}
            </time>
            <span className="sr-only"> (open the post)</span>
          </a>
        </div>
      </header>
      <p className="flex-1 whitespace-pre-line break-words text-sm leading-relaxed text-violet-50">
        {post.content}
      </p>
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-violet-200/85">
        {counts.map((count) => (
          <li key={count.key} className="flex items-center gap-1">
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="h-3.5 w-3.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
            >
              <path d={count.icon} strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <span className="tabular-nums">{formatCount(post[count.key])}</span>
            <span className="sr-only">{count.label}</span>
          </li>
        ))}
      </ul>
      <footer className="flex flex-wrap items-center gap-2 border-t border-white/10 pt-3">
        <span className="text-lg font-extrabold tabular-nums text-mana-soft">
          {formatMana(post.mana)} <span className="text-xs font-bold uppercase text-violet-200/80">Mana</span>
        </span>
        <span
          className={`rounded-full px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide ${post.final ? 'bg-emerald-500/20 text-emerald-300' : 'bg-amber-400/20 text-amber-200'}`}
          title={
            post.final
              ? 'The refresh window is over: this Mana no longer moves'
              : 'Counts are still refreshed: this Mana may move'
          }
        >
          {post.final ? 'Final' : 'Pending'}
        </span>
        {post.overDailyLimit ? (
          <span
            className="rounded-full bg-rose-500/20 px-2 py-0.5 text-[0.7rem] font-bold uppercase tracking-wide text-rose-200"
            title="Posted beyond the author's daily limit: earns no Mana"
          >
            Over daily limit
          </span>
        ) : null}
      </footer>
    </article>
  );
}
