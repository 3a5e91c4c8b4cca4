import { useRef, type KeyboardEvent } from 'react';

export type BoardTab = 'ranks' | 'posts';

const tabs: ReadonlyArray<{ id: BoardTab; label: string }> = [
  { id: 'ranks', label: 'Ranks' },
  { id: 'posts', label: 'Posts' },
];

export const tabId = (tab: BoardTab) => `leaderboard-tab-${tab}`;
export const panelId = (tab: BoardTab) => `leaderboard-panel-${tab}`;

type LeaderboardTabsProps = { selected: BoardTab; onSelect: (tab: BoardTab) => void };

/**
 * Ranks and Posts as real tabs (WAI-ARIA tabs pattern, automatic activation): one tab stop, arrow keys move
 * and select, Home and End jump to the ends.
 */
export function LeaderboardTabs({ selected, onSelect }: LeaderboardTabsProps) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.id);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Leaderboard views" className="inline-flex rounded-full bg-black/40 p-1">
      {tabs.map((tab, index) => {
        const active = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-selected={active}
            aria-controls={panelId(tab.id)}
            tabIndex={active ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`rounded-full px-4 py-1.5 text-sm font-bold sm:px-5 sm:py-2 transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold ${active ? 'bg-violet-700 text-white shadow shadow-mana/40' : 'text-violet-200 hover:text-white'}`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}
