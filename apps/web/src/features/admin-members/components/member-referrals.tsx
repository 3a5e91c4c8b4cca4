import { useId } from 'react';
import { Link } from 'react-router';
import type { MemberDetail } from '@manaboard/contract/admin';
import { memberPath } from '../api/members';
import { formatWhen, link, panel } from './styles';

type Referral = NonNullable<MemberDetail['referrals']['referredBy']>;

function ReferralLine({ referral }: { referral: Referral }) {
  return (
    <>
      <Link to={memberPath(referral.memberId)} className={`${link} break-all`}>
        @{referral.handle}
      </Link>{' '}
      <span className="text-violet-200">
        · {referral.status === 'credited' ? `credited ${referral.rewardMana} Mana` : 'void'} ·{' '}
        <time dateTime={referral.at}>{formatWhen(referral.at)}</time>
      </span>
    </>
  );
}

/** Who brought the member in and whom they brought, each a link to that member's page. */
export function MemberReferrals({ referrals }: { referrals: MemberDetail['referrals'] }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-heading`} className={panel}>
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        Referrals
      </h2>
      <h3 className="text-sm font-bold text-violet-100">Referred by</h3>
      <p className="text-sm">
        {referrals.referredBy ? (
          <ReferralLine referral={referrals.referredBy} />
        ) : (
          'Nobody: joined on their own.'
        )}
      </p>
      <h3 className="text-sm font-bold text-violet-100">Referred ({referrals.referred.length})</h3>
      {referrals.referred.length === 0 ? (
        <p className="text-sm text-violet-200">Nobody yet.</p>
      ) : (
        <ul className="space-y-1 text-sm" aria-label="Members they referred">
          {referrals.referred.map((r) => (
            <li key={r.memberId}>
              <ReferralLine referral={r} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
