import type { ReferralLink } from '../api/get-referral-link';

type ReferralLinkPanelProps = {
  link: ReferralLink | undefined;
  loading: boolean;
  copied: boolean;
  onCopy: (url: string) => void;
};

/** The link as SPEC §2 shows it, `{host}/r/@{handle}`; the copy keeps the scheme so it opens anywhere. */
function shownUrl(url: string): string {
  return url.replace(/^https?:\/\//, '');
}

/** The copyable referral link (SPEC §2). A failed link generation is only logged, so the panel just stays empty. */
export function ReferralLinkPanel({ link, loading, copied, onCopy }: ReferralLinkPanelProps) {
  return (
    <div>
      <p className="mb-1 text-xs font-semibold uppercase tracking-wider text-gold/90">Your referral link</p>
      <span aria-live="polite" className="sr-only">
        {copied ? 'Referral link copied' : ''}
      </span>
      {link ? (
        <button
          type="button"
          onClick={() => onCopy(link.url)}
          className="flex w-full items-center gap-2 rounded-xl border border-mana/50 bg-black/45 px-3 py-2 text-left hover:border-mana-soft focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          {/* Named by its visible text (the link, then Copy), after a hidden lead-in that says what it does. */}
          <span className="sr-only">Copy your referral link </span>
          <code className="min-w-0 flex-1 truncate text-xs text-violet-100">{shownUrl(link.url)}</code>
          <span
            className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-bold ${copied ? 'bg-emerald-500/25 text-emerald-300' : 'bg-mana/30 text-white'}`}
          >
            {copied ? 'Copied' : 'Copy'}
          </span>
        </button>
      ) : (
        <p className="rounded-xl border border-white/10 bg-black/30 px-3 py-2 text-xs text-violet-200/70">
          {loading ? 'Preparing your link…' : 'Your link is not available right now.'}
        </p>
      )}
    </div>
  );
}
