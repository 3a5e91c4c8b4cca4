import { useState, type ReactNode } from 'react';

export type StepPage = { title: string; paragraphs: readonly string[] };

type PagedStepsProps = {
  pages: readonly StepPage[];
  /** What the dots are called for screen readers ("How to earn Mana pages"). */
  label: string;
  /** Below the navigation (How to earn Mana's learn-more link). */
  footer?: ReactNode;
};

const arrowClass =
  'grid h-10 w-10 place-items-center rounded-full border border-white/20 text-violet-100 hover:bg-white/10 aria-disabled:cursor-not-allowed aria-disabled:opacity-35 aria-disabled:hover:bg-transparent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';

/**
 * The pages of FAQ and How to earn Mana (SPEC §2): "Step n", previous/next arrows, a dot per page. It starts at
 * page 1 on every mount, and the modal shell unmounts its content on close, so each open starts at page 1.
 * The arrows stay focusable at the ends (aria-disabled), so keyboard focus never drops out of the dialog.
 */
export function PagedSteps({ pages, label, footer }: PagedStepsProps) {
  const [index, setIndex] = useState(0);
  const page = pages[index];
  if (!page) return null;
  const last = pages.length - 1;
  const go = (next: number) => setIndex(Math.min(last, Math.max(0, next)));

  return (
    <div className="flex flex-col gap-5">
      <div aria-live="polite" className="min-h-[12rem]">
        <p className="text-xs font-bold uppercase tracking-[0.2em] text-gold">Step {index + 1}</p>
        <h3 className="mt-1 text-2xl font-extrabold tracking-tight text-white">{page.title}</h3>
        {page.paragraphs.map((paragraph) => (
          <p key={paragraph} className="mt-3 leading-relaxed text-violet-100/90">
            {paragraph}
          </p>
        ))}
      </div>
      <div className="flex items-center justify-between gap-3">
        <button
          type="button"
          aria-label="Previous page"
          aria-disabled={index === 0}
          onClick={() => go(index - 1)}
          className={arrowClass}
        >
          <Arrow direction="left" />
        </button>
        <div role="group" aria-label={label} className="flex items-center gap-1">
          {pages.map((item, dot) => (
            <button
              key={item.title}
              type="button"
              aria-label={`Step ${dot + 1}: ${item.title}`}
              aria-current={dot === index ? 'step' : undefined}
              onClick={() => go(dot)}
              className="grid h-8 w-8 place-items-center rounded-full focus-visible:outline-2 focus-visible:outline-gold"
            >
              <span
                aria-hidden="true"
                className={`block h-2.5 rounded-full transition-all ${dot === index ? 'w-6 bg-gold' : 'w-2.5 bg-white/35'}`}
              />
            </button>
          ))}
        </div>
        <button
          type="button"
          aria-label="Next page"
          aria-disabled={index === last}
          onClick={() => go(index + 1)}
          className={arrowClass}
        >
          <Arrow direction="right" />
        </button>
      </div>
      {footer}
    </div>
  );
}

function Arrow({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path
        d={direction === 'left' ? 'M12 4l-6 6 6 6' : 'M8 4l6 6-6 6'}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
