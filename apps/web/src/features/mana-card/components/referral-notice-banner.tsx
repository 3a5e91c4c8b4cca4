import { displayHandle } from '@manaboard/contract';
import type { ReferralNotice } from '../hooks/use-referral-entry';

const toneClass = {
  applied: 'border-emerald-400/40 bg-emerald-500/15 text-emerald-200',
  refused: 'border-rose-400/40 bg-rose-500/15 text-rose-200',
} as const;

function text(notice: ReferralNotice): string {
  if (notice.kind === 'refused')
    return `Your account is linked, but the referral was not applied. ${notice.message}`;
  const by = notice.referrerHandle ? ` You were referred by ${displayHandle(notice.referrerHandle)}.` : '';
  return `Referral applied!${by}`;
}

/**
 * Shown for 5 s after linking through a referral link (SPEC §4, §9): applied, or refused with the catalogue
 * message. One polite live region, always present so the notice is heard when it appears; the notice inside
 * has no role of its own (that would be a second region and a second announcement).
 */
export function ReferralNoticeBanner({ notice }: { notice: ReferralNotice | null }) {
  return (
    <div aria-live="polite">
      {notice ? (
        <p
          className={`mx-auto mb-6 max-w-xl rounded-2xl border px-4 py-3 text-center text-sm font-semibold ${toneClass[notice.kind]}`}
        >
          {text(notice)}
        </p>
      ) : null}
    </div>
  );
}
