import type { FairnessFlag, FairnessFlagKind } from '@manaboard/contract/admin';
import { FlagEvidence } from './flag-evidence';
import { ReviewForm } from './review-form';
import { button } from './styles';

export const kindLabel: Record<FairnessFlagKind, string> = {
  ring: 'Ring',
  referral_chain: 'Referral chain',
  spike: 'Spike',
};

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const at = (iso: string) => `${when.format(new Date(iso))} UTC`;

/** One flag: whom, why (the detector's sentence), the evidence, its review state and the review form. */
export function FlagCard({
  flag,
  onShowMember,
}: {
  flag: FairnessFlag;
  onShowMember?: (id: string) => void;
}) {
  return (
    <li className="space-y-3 rounded-xl border border-white/10 bg-dusk/70 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded-full border border-gold/60 px-2 py-0.5 text-xs font-bold uppercase tracking-wide text-gold">
          {kindLabel[flag.kind]}
        </span>
        <h3 className="break-all text-base font-bold">@{flag.handle}</h3>
        <span className="text-xs text-violet-200">strength {Math.round(flag.score * 100)}%</span>
        {flag.review ? (
          <span className="rounded-full border border-emerald-300/60 px-2 py-0.5 text-xs font-bold text-emerald-200">
            Reviewed
          </span>
        ) : (
          <span className="rounded-full border border-amber-300/60 px-2 py-0.5 text-xs font-bold text-amber-200">
            Not reviewed
          </span>
        )}
      </div>
      <p className="text-sm leading-relaxed">{flag.reason}.</p>
      <details className="rounded-lg bg-black/30 p-3">
        <summary className="cursor-pointer text-sm font-semibold text-mana-soft focus-visible:outline-2 focus-visible:outline-gold">
          Evidence
        </summary>
        <div className="mt-2">
          <FlagEvidence flag={flag} />
        </div>
      </details>
      <p className="text-xs text-violet-200">
        First flagged {at(flag.firstFlaggedAt)} · computed {at(flag.computedAt)} ·{' '}
        <span className="break-all font-mono">{flag.subjectId}</span>
      </p>
      {flag.review ? (
        <blockquote className="rounded-lg border-l-4 border-emerald-300/60 bg-black/30 p-3 text-sm">
          <p className="break-words">{flag.review.note}</p>
          <footer className="mt-1 text-xs text-violet-200">
            {flag.review.by}, {at(flag.review.at)}
          </footer>
        </blockquote>
      ) : null}
      <ReviewForm flag={flag} />
      {onShowMember ? (
        <button type="button" className={button} onClick={() => onShowMember(flag.subjectId)}>
          All flags of @{flag.handle}
        </button>
      ) : null}
    </li>
  );
}
