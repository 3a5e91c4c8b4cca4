import { lazy, Suspense } from 'react';
import { useParams } from 'react-router';
import { DemoBadge } from '../../components/layout/demo-badge';
import { PageFooter } from '../../components/layout/page-footer';
import { useAccount } from '../../lib/account';
import { HeaderAccount } from '../../features/account/components/header-account';
import { useAccountRechecks } from '../../lib/use-account-rechecks';
import { useBranding } from '../../lib/branding';
import { useBreakdownDialog } from '../../features/breakdown/components/use-breakdown-dialog';
import { LeaderboardPanel } from '../../features/leaderboard/components/leaderboard-panel';
import { ManaCard } from '../../features/mana-card/components/mana-card';
import { ReferralNoticeBanner } from '../../features/mana-card/components/referral-notice-banner';
import { useLinkAccount } from '../../features/mana-card/hooks/use-link-account';
import { useReferralEntry } from '../../features/mana-card/hooks/use-referral-entry';
import { TopBar } from '../../features/navigation/components/top-bar';
import { LazyVideoFacade, VideoPlaceholder } from '../../features/video/components/lazy-video-facade';
import { useMediaQuery, XL_UP } from '../../lib/use-media-query';
import { FaqModal, HowToEarnModal, MakerModal, VideoOverlay, WhatsNewModal } from '../lazy-modals';
import { useMainPageModals } from '../use-main-page-modals';

// Shown only when the operator configures no video: not worth a place in the first load.
const ProgrammeIntro = lazy(() => import('./programme-intro').then((m) => ({ default: m.ProgrammeIntro })));

/**
 * The main page (SPEC §2); `/r/:handle` renders it too and remembers the referrer. From 1280 px the video takes
 * 72% beside the card's 28%; narrower screens show the card alone (max width md) and the Video link opens the
 * video in an overlay.
 */
export function MainPage() {
  const { handle } = useParams();
  const modals = useMainPageModals();
  const branding = useBranding();
  const account = useAccount();
  useAccountRechecks();
  const referralNotice = useReferralEntry(handle, account.connected);
  const { link, linking, handleForm } = useLinkAccount();
  const video = branding?.video ?? null;
  const wide = useMediaQuery(XL_UP);
  // One breakdown dialog for the page: the card's total and the leaderboard's figures both open it.
  const breakdown = useBreakdownDialog();

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar
        branding={branding}
        actions={modals.actions}
        extra={<DemoBadge />}
        account={<HeaderAccount account={account} onLink={link} linking={linking} />}
      />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-[1600px] flex-1 px-4 py-6 outline-none sm:px-6 sm:py-10"
      >
        <h1 className="sr-only">
          {branding?.programmeName ?? 'Manaboard'}: earn Mana for the posts the community loves
        </h1>
        <ReferralNoticeBanner notice={referralNotice} />
        <div className="grid items-start gap-8 xl:grid-cols-[72fr_28fr]">
          {video ? (
            <section aria-label="Video" className="hidden xl:block" data-testid="video-slot">
              {wide ? (
                <Suspense fallback={<VideoPlaceholder />}>
                  <LazyVideoFacade video={video} />
                </Suspense>
              ) : null}
            </section>
          ) : (
            <Suspense fallback={null}>
              <ProgrammeIntro className="hidden xl:block" />
            </Suspense>
          )}
          <div className="mx-auto w-full max-w-md xl:max-w-none">
            <ManaCard
              account={account}
              onLink={link}
              linking={linking}
              handleForm={handleForm}
              breakdown={breakdown.opener}
            />
          </div>
        </div>
        <LeaderboardPanel breakdown={breakdown.opener} />
      </main>
      <PageFooter brand={branding} />
      {breakdown.dialog}
      {/* One boundary per modal: a modal whose chunk is loading never hides another one. */}
      {modals.updates.hasOpened ? (
        <Suspense fallback={null}>
          <WhatsNewModal open={modals.updates.isOpen} onClose={modals.updates.close} />
        </Suspense>
      ) : null}
      {modals.faq.hasOpened ? (
        <Suspense fallback={null}>
          <FaqModal open={modals.faq.isOpen} onClose={modals.faq.close} />
        </Suspense>
      ) : null}
      {modals.howToEarn.hasOpened ? (
        <Suspense fallback={null}>
          <HowToEarnModal open={modals.howToEarn.isOpen} onClose={modals.howToEarn.close} />
        </Suspense>
      ) : null}
      {modals.maker.hasOpened ? (
        <Suspense fallback={null}>
          <MakerModal open={modals.maker.isOpen} onClose={modals.maker.close} handle={account.handle} />
        </Suspense>
      ) : null}
      {modals.video.hasOpened && video ? (
        <Suspense fallback={null}>
          <VideoOverlay open={modals.video.isOpen} onClose={modals.video.close} video={video} />
        </Suspense>
      ) : null}
    </div>
  );
}
