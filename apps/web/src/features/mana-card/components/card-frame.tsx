import type { ReactNode } from 'react';

type CardFrameProps = { children: ReactNode; label: string; busy?: boolean };

/**
 * The mana card's body: ratio 1378:2039 at a design width of 400 px (SPEC §2, §9), our own frame art behind,
 * the content inset inside the gold rim. The art is a background of the stylesheet (`.card-frame-art`).
 */
export function CardFrame({ children, label, busy = false }: CardFrameProps) {
  return (
    <section
      aria-label={label}
      aria-busy={busy}
      className="relative mx-auto aspect-[1378/2039] w-full max-w-[400px] drop-shadow-[0_20px_40px_rgb(88_28_135/0.45)]"
    >
      <div aria-hidden="true" className="card-frame-art pointer-events-none absolute inset-0 select-none" />
      <div className="absolute inset-x-[8%] bottom-[6%] top-[8.5%] flex flex-col">{children}</div>
    </section>
  );
}
