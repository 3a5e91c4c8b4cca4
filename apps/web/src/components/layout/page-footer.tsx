type PageFooterProps = {
  /** From the branding; undefined while it loads (the footer keeps its height meanwhile). */
  brand?: {
    copyrightHolder: string;
    supportEmail: string;
    links: { social: string; chat: string };
  };
};

const linkClass =
  'rounded font-semibold text-violet-100 underline-offset-4 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-mana-soft';

/** The footer (SPEC §1, §9): the social link, the support e-mail, the chat link and the 2025 copyright line. */
export function PageFooter({ brand }: PageFooterProps) {
  return (
    <footer className="border-t border-white/10 px-4 py-6 text-sm text-violet-200/80">
      <div className="mx-auto flex min-h-[3.5rem] max-w-[1600px] flex-col items-center justify-between gap-3 sm:flex-row">
        <ul className="flex flex-wrap items-center justify-center gap-x-6 gap-y-2">
          {brand ? (
            <>
              <li>
                <a href={brand.links.social} target="_blank" rel="noopener noreferrer" className={linkClass}>
                  Follow us<span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
              <li>
                <a href={`mailto:${brand.supportEmail}`} className={linkClass}>
                  {brand.supportEmail}
                </a>
              </li>
              <li>
                <a href={brand.links.chat} target="_blank" rel="noopener noreferrer" className={linkClass}>
                  Join the chat<span className="sr-only"> (opens in a new tab)</span>
                </a>
              </li>
            </>
          ) : null}
        </ul>
        <p>© 2025 {brand?.copyrightHolder}</p>
      </div>
    </footer>
  );
}
