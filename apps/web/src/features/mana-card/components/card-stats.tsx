import { displayHandle } from '@manaboard/contract';
import { useState } from 'react';
import type { BreakdownOpener } from '../../../lib/breakdown-target';
import { formatCount, formatMana } from '../../../lib/format-mana';
import { useCardStats } from '../hooks/use-card-stats';

type CardStatsProps = { handle: string; breakdown: BreakdownOpener };

/**
 * The linked card's stats (SPEC §2): shown on hover, on focus, and on tap (touch has no hover) — rank (#n, or
 * #0), likes, retweets, total posts, replies, referees, daily posts used/limit, total Mana large (which opens
 * its breakdown) and the handle in capitals. Until first shown, the card's crystal art stands in their place.
 */
export function CardStats({ handle, breakdown }: CardStatsProps) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [tapped, setTapped] = useState(false);
  const shown = hovered || focused || tapped;
  const [asked, setAsked] = useState(false);
  if (shown && !asked) setAsked(true);
  const stats = useCardStats(handle, asked);
  const items = [
    ['Likes', stats.likes],
    ['Retweets', stats.retweets],
    ['Posts', stats.totalPosts],
    ['Replies', stats.replies],
    ['Referees', stats.refereeCount],
  ] as const;

  return (
    <div
      data-testid="card-stats"
      data-shown={shown}
      className="flex min-h-0 flex-1 items-center justify-center"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <button
        type="button"
        aria-expanded={shown}
        aria-controls="card-stats-panel"
        onClick={() => setTapped((value) => !value)}
        onPointerEnter={breakdown.preload}
        className="relative flex h-full w-full items-center justify-center rounded-2xl focus-visible:outline-2 focus-visible:outline-gold"
      >
        <img src="/art/mana-crystals.svg" alt="" className="max-h-full w-2/5 object-contain opacity-90" />
        <span className="absolute bottom-1 rounded-full bg-black/50 px-2 py-0.5 text-[0.65rem] font-semibold uppercase tracking-wider text-gold/90">
          Your stats
        </span>
      </button>
      <div
        id="card-stats-panel"
        hidden={!shown}
        className="absolute inset-0 z-20 flex flex-col justify-center gap-5 rounded-2xl border border-gold/40 bg-ink/95 p-4 shadow-2xl shadow-black/60"
      >
        <div className="flex items-baseline justify-between gap-2">
          <p
            className="truncate text-base font-black uppercase tracking-widest text-gold"
            data-testid="stats-handle"
          >
            {displayHandle(handle).toUpperCase()}
          </p>
          <p className="text-2xl font-black tabular-nums text-white" data-testid="stats-rank">
            <span className="sr-only">Rank </span>#{stats.rank}
          </p>
        </div>
        <dl className="grid grid-cols-3 gap-x-2 gap-y-3 rounded-xl bg-white/5 py-3 text-center">
          {items.map(([label, value]) => (
            <div key={label}>
              <dt className="text-[0.65rem] font-semibold uppercase tracking-wider text-violet-200/80">
                {label}
              </dt>
              <dd className="text-base font-bold tabular-nums text-white">{formatCount(value)}</dd>
            </div>
          ))}
          <div>
            <dt className="text-[0.65rem] font-semibold uppercase tracking-wider text-violet-200/80">
              Daily posts
            </dt>
            <dd className="text-base font-bold tabular-nums text-white" data-testid="stats-daily">
              {stats.dailyUsed}/{stats.dailyLimit}
            </dd>
          </div>
        </dl>
        <button
          type="button"
          disabled={!stats.authorId}
          onClick={() =>
            stats.authorId &&
            breakdown.open({
              authorId: stats.authorId,
              authorName: handle,
              figure: stats.totalMana,
              weekly: false,
            })
          }
          className="mx-auto rounded-xl px-3 text-center leading-none hover:bg-white/5 disabled:cursor-default focus-visible:outline-2 focus-visible:outline-gold"
        >
          <span
            className="block text-[clamp(2rem,11vw,3.25rem)] font-black tabular-nums text-gold drop-shadow"
            data-testid="stats-total"
          >
            {formatMana(stats.totalMana)}
          </span>
          <span className="text-[0.65rem] font-bold uppercase tracking-widest text-violet-100">
            Total Mana
          </span>
          {stats.authorId ? <span className="sr-only">: show the breakdown</span> : null}
        </button>
      </div>
    </div>
  );
}
