import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import type { MemberDetail } from '@manaboard/contract/admin';
import { ApiError } from '../../../lib/api-error';
import { memberDetailQueryOptions } from '../api/members';
import { MemberActivity } from './member-activity';
import { MemberBreakdown } from './member-breakdown';
import { MemberReferrals } from './member-referrals';
import { MemberFlags } from './member-flags';
import { QualificationBadge } from './qualification-badge';
import { QualificationPanel } from './qualification-panel';
import { button, formatWhen, link } from './styles';

/** A member's page: who they are, their standing (disqualify / requalify), Mana, referrals, appeals, history. */
export function MemberPage() {
  const { memberId = '' } = useParams();
  const member = useQuery(memberDetailQueryOptions(memberId));
  return (
    <div className="space-y-4">
      <Link to="/admin/members" className={`${link} text-sm`}>
        ← Members
      </Link>
      {member.isPending ? (
        <p role="status">Loading the member…</p>
      ) : member.isError ? (
        <div role="alert" className="space-y-2">
          <h1 className="text-2xl font-black">Member</h1>
          <p className="text-rose-200">
            {member.error instanceof ApiError && member.error.status === 404
              ? 'No author or member has this id.'
              : member.error.message}
          </p>
          <button type="button" className={button} onClick={() => void member.refetch()}>
            Retry
          </button>
        </div>
      ) : (
        <MemberView member={member.data.data} />
      )}
    </div>
  );
}

function MemberView({ member }: { member: MemberDetail }) {
  const handle = member.profile?.handle ?? member.account?.handle ?? member.memberId;
  return (
    <article aria-labelledby="member-heading" className="space-y-6">
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="member-heading" className="break-all text-2xl font-black">
            @{handle}
          </h1>
          <QualificationBadge disqualified={member.disqualification.disqualified} />
        </div>
        {member.profile?.displayName ? <p className="text-violet-100">{member.profile.displayName}</p> : null}
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-violet-200">Network user id</dt>
          <dd className="break-all font-mono text-xs leading-5">{member.memberId}</dd>
          <dt className="text-violet-200">Tracked author</dt>
          <dd>{member.profile ? `since ${formatWhen(member.profile.firstTrackedAt)}` : 'no'}</dd>
          <dt className="text-violet-200">Linked member</dt>
          <dd>
            {member.account
              ? `since ${formatWhen(member.account.linkedAt)} · ${member.account.followers} followers · ${member.account.browsers} ${member.account.browsers === 1 ? 'browser' : 'browsers'}`
              : 'no'}
          </dd>
          {member.account?.networkCreatedAt ? (
            <>
              <dt className="text-violet-200">Network account created</dt>
              <dd>{formatWhen(member.account.networkCreatedAt)}</dd>
            </>
          ) : null}
        </dl>
      </header>
      <QualificationPanel member={member} />
      <MemberBreakdown breakdown={member.breakdown} />
      <MemberReferrals referrals={member.referrals} />
      <MemberFlags memberId={member.memberId} />
      <MemberActivity appeals={member.appeals} history={member.history} />
    </article>
  );
}
