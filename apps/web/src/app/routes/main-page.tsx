import { Suspense } from 'react';
import { useParams } from 'react-router';
import { PageFooter } from '../../components/layout/page-footer';
import { PageHeader } from '../../components/layout/page-header';
import { useDisclosure } from '../../components/ui/use-disclosure';
import { useAccount } from '../../features/account/api/get-account';
import { HeaderAccount } from '../../features/account/components/header-account';
import { useAccountRechecks } from '../../features/account/hooks/use-account-rechecks';
import { LeaderboardPanel } from '../../features/leaderboard/components/leaderboard-panel';
import { ManaCard } from '../../features/mana-card/components/mana-card';
import { ReferralNoticeBanner } from '../../features/mana-card/components/referral-notice-banner';
import { useLinkAccount } from '../../features/mana-card/hooks/use-link-account';
import { useReferralEntry } from '../../features/mana-card/hooks/use-referral-entry';
import { preloadWhatsNewModal, WhatsNewModal } from '../lazy-modals';
import { useGlobalOpener } from '../use-global-opener';
import { ProgrammeIntro } from './programme-intro';

/**
 * The main page (SPEC §2); `/r/:handle` renders it too and remembers the referrer. From 1280 px the promo
 * slot takes 72% beside the card's 28%; narrower screens show the card alone (max width md).
 */
export function MainPage() {
  const { handle } = useParams();
  const updates = useDisclosure();
  useGlobalOpener('openUpdatesModal', updates.open);
  const account = useAccount();
  useAccountRechecks();
  const referralNotice = useReferralEntry(handle, account.connected);
  const { link, linking } = useLinkAccount();

  return (
    <div className="flex min-h-screen flex-col">
      <PageHeader
        onOpenUpdates={updates.open}
        onUpdatesIntent={preloadWhatsNewModal}
        account={<HeaderAccount account={account} onLink={link} linking={linking} />}
      />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-[1600px] flex-1 px-4 py-6 outline-none sm:px-6 sm:py-10"
      >
        <h1 className="sr-only">Manaboard: earn Mana for the posts the community loves</h1>
        <ReferralNoticeBanner notice={referralNotice} />
        <div className="grid items-start gap-8 xl:grid-cols-[72fr_28fr]">
          {/* The promo video takes this slot with its issue; until then the programme's introduction. */}
          <ProgrammeIntro className="hidden xl:block" />
          <div className="mx-auto w-full max-w-md xl:max-w-none">
            <ManaCard account={account} onLink={link} linking={linking} />
          </div>
        </div>
        <LeaderboardPanel />
      </main>
      <PageFooter />
      {updates.hasOpened ? (
        <Suspense fallback={null}>
          <WhatsNewModal open={updates.isOpen} onClose={updates.close} />
        </Suspense>
      ) : null}
    </div>
  );
}
