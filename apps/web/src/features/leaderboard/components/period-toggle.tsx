import { MD_UP, useMediaQuery } from '../../../lib/use-media-query';

type PeriodToggleProps = { weekly: boolean; onChange: (weekly: boolean) => void };

/** This Week (Weekly under 768 px) or All Time (SPEC §2): two pressed-state buttons in a labelled group. */
export function PeriodToggle({ weekly, onChange }: PeriodToggleProps) {
  const wide = useMediaQuery(MD_UP);
  const options = [
    { value: true, label: wide ? 'This Week' : 'Weekly' },
    { value: false, label: 'All Time' },
  ];
  return (
    <div
      role="group"
      aria-label="Period"
      className="inline-flex shrink-0 rounded-full border border-white/15 p-0.5"
    >
      {options.map((option) => {
        const pressed = option.value === weekly;
        return (
          <button
            key={option.label}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(option.value)}
            className={`whitespace-nowrap rounded-full px-2.5 py-1.5 text-sm sm:px-3.5 font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold ${pressed ? 'bg-gold text-ink' : 'text-violet-200 hover:text-white'}`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
