import { displayHandle } from '@manaboard/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useId } from 'react';
import { userMessageFor } from '../../../lib/api-error';
import { publicConfigQueryOptions } from '../../../lib/public-config';
import { networkWeb } from '../../../networks/networks';
import type { BreakdownOpener } from '../../../lib/breakdown-target';
import { accountKeys } from '../../../lib/account';
import { useUnlink } from '../api/unlink';
import { AccountAvatar } from '../../../components/ui/account-avatar';
import { useReferralLink } from '../api/get-referral-link';
import { referrerOf, useReferralStatus } from '../api/get-referral-status';
import { referralKeys } from '../api/referral-keys';
import { useApplyReferralFlow } from '../hooks/use-apply-referral-flow';
import { clearPendingReferrer } from '../../../lib/pending-referrer';
import { useStanding } from '../api/standing';
import { useCardRewards } from '../hooks/use-card-rewards';
import { useCopyToClipboard } from '../hooks/use-copy-to-clipboard';
import { CardFrame } from './card-frame';
import { CardMessages } from './card-messages';
import { CardStats } from './card-stats';
import { DisqualifiedPanel } from './disqualified-panel';
import { GetReferredForm } from './get-referred-form';
import { ReferralLinkPanel } from './referral-link-panel';

type LinkedCardProps = {
  handle: string;
  avatarUrl: string | null;
  /** Opens the Mana breakdown behind the stats' total (the page's one dialog). */
  breakdown: BreakdownOpener;
};

/**
 * The card of a linked member (SPEC §2): avatar and handle with Unlink, the copyable referral link and Get
 * Referred, and its stats on hover, focus or tap, whose total opens the Mana breakdown.
 */
export function LinkedCard({ handle, avatarUrl, breakdown }: LinkedCardProps) {
  const client = useQueryClient();
  const network = networkWeb(useQuery(publicConfigQueryOptions()).data?.data.socialNetwork);
  const link = useReferralLink(handle);
  const status = useReferralStatus(handle);
  const clipboard = useCopyToClipboard();
  const unlink = useUnlink(clearPendingReferrer);
  const rewards = useCardRewards();
  const refresh = useCallback(() => {
    void client.invalidateQueries({ queryKey: accountKeys.all });
    void client.invalidateQueries({ queryKey: referralKeys.status(handle) });
  }, [client, handle]);
  const apply = useApplyReferralFlow(refresh);
  const applyMessageId = useId();
  const applyError = apply.phase === 'error' && apply.message !== null;
  // A disqualified member sees why and may appeal, instead of the ways to earn (issue 13).
  const standing = useStanding(handle).data;
  const disqualified = standing?.disqualified ? standing : null;

  return (
    <CardFrame label="Mana card" busy={unlink.isPending}>
      <div className="flex h-full flex-col gap-3">
        <div className="flex items-center gap-3">
          <AccountAvatar handle={handle} avatarUrl={avatarUrl} size="lg" />
          <div className="min-w-0 flex-1">
            <div className="flex items-center justify-between gap-2">
              <p className="text-[0.65rem] font-semibold uppercase tracking-widest text-gold/80">
                Linked account
              </p>
              <button
                type="button"
                onClick={() => unlink.mutate()}
                disabled={unlink.isPending}
                className="shrink-0 rounded-full border border-white/25 px-2.5 py-0.5 text-xs font-semibold text-violet-100 hover:border-red-300 hover:text-red-200 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
              >
                {unlink.isPending ? 'Unlinking…' : 'Unlink'}
              </button>
            </div>
            <p className="truncate text-lg font-extrabold text-white">{displayHandle(handle)}</p>
          </div>
        </div>
        {disqualified ? (
          <>
            <DisqualifiedPanel handle={handle} standing={disqualified} />
            <CardMessages
              apply={null}
              clipboardError={null}
              statusError={null}
              onRetryStatus={() => undefined}
              unlinkError={unlink.isError ? userMessageFor(unlink.error) : null}
            />
          </>
        ) : (
          <>
            <p className="text-xs leading-relaxed text-violet-100/85">
              <span className="capitalize">{rewards.multiplier}</span> Mana is on. Share your link: you earn{' '}
              {rewards.referralReward} Mana for every friend who links.
            </p>
            <CardStats handle={handle} breakdown={breakdown} />
            <ReferralLinkPanel
              link={link.data}
              loading={link.isPending}
              copied={clipboard.copied}
              onCopy={(url) => void clipboard.copy(url)}
            />
            <GetReferredForm
              connected
              referredBy={referrerOf(status.data)}
              phase={apply.phase}
              onApply={apply.submit}
              errorId={applyError ? applyMessageId : undefined}
              exampleHandle={network.exampleHandle}
            />
            <CardMessages
              apply={
                apply.message
                  ? {
                      tone: apply.phase === 'success' ? 'success' : 'error',
                      text: apply.message,
                      id: applyMessageId,
                    }
                  : null
              }
              clipboardError={clipboard.error}
              statusError={status.isError ? userMessageFor(status.error) : null}
              onRetryStatus={() => void status.refetch()}
              unlinkError={unlink.isError ? userMessageFor(unlink.error) : null}
            />
          </>
        )}
      </div>
    </CardFrame>
  );
}
