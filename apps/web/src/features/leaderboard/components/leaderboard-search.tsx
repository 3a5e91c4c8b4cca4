import { useId } from 'react';
import { CloseIcon } from '../../../components/ui/close-icon';

type LeaderboardSearchProps = { value: string; onChange: (value: string) => void; onClear: () => void };

/** The search box with its clear button (SPEC §2); the caller debounces. */
export function LeaderboardSearch({ value, onChange, onClear }: LeaderboardSearchProps) {
  const id = useId();
  return (
    <div className="relative w-full sm:w-64">
      <label htmlFor={id} className="sr-only">
        Search authors and posts
      </label>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-violet-300/70"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
      >
        <circle cx="9" cy="9" r="5.5" />
        <path d="M13.5 13.5L17 17" strokeLinecap="round" />
      </svg>
      <input
        id={id}
        type="search"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && value) {
            event.preventDefault();
            onClear();
          }
        }}
        placeholder="Search @handle or text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        className="w-full rounded-full border border-white/15 bg-black/45 py-2 pl-9 pr-10 text-sm text-white placeholder:text-violet-200/60 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft [&::-webkit-search-cancel-button]:appearance-none"
      />
      {value ? (
        <button
          type="button"
          onClick={onClear}
          aria-label="Clear search"
          className="absolute right-1.5 top-1/2 -translate-y-1/2 rounded-full p-1.5 text-violet-200 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-gold"
        >
          <CloseIcon className="h-4 w-4" />
        </button>
      ) : null}
    </div>
  );
}
