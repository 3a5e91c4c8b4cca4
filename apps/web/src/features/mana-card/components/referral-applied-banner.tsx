import { displayHandle } from '@manaboard/contract';
import type { AppliedReferral } from '../hooks/use-referral-entry';

/** Shown for 5 s after linking through a referral link applied the referrer (SPEC §4). */
export function ReferralAppliedBanner({ applied }: { applied: AppliedReferral | null }) {
  return (
    <div aria-live="polite">
      {applied ? (
        <p
          role="status"
          className="mx-auto mb-6 max-w-xl rounded-2xl border border-emerald-400/40 bg-emerald-500/15 px-4 py-3 text-center text-sm font-semibold text-emerald-200"
        >
          Referral applied!
          {applied.referrerHandle ? ` You were referred by ${displayHandle(applied.referrerHandle)}.` : ''}
        </p>
      ) : null}
    </div>
  );
}
