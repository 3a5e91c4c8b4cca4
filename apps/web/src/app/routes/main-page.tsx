import { Suspense } from 'react';
import { useParams } from 'react-router';
import { PageFooter } from '../../components/layout/page-footer';
import { PageHeader } from '../../components/layout/page-header';
import { useDisclosure } from '../../components/ui/use-disclosure';
import { preloadWhatsNewModal, WhatsNewModal } from '../lazy-modals';
import { useGlobalOpener } from '../use-global-opener';

/** Strips a leading @ from a referral handle (SPEC §2 `/r/{handle}`). */
export function normaliseReferralHandle(handle: string | undefined): string | null {
  const trimmed = (handle ?? '').trim().replace(/^@/, '');
  return trimmed.length > 0 ? trimmed : null;
}

/** The main page (SPEC §2); `/r/:handle` renders it too. Later issues fill the card and the leaderboard. */
export function MainPage() {
  const { handle } = useParams();
  const referrer = normaliseReferralHandle(handle);
  const updates = useDisclosure();
  useGlobalOpener('openUpdatesModal', updates.open);

  return (
    <div className="flex min-h-screen flex-col">
      <PageHeader onOpenUpdates={updates.open} onUpdatesIntent={preloadWhatsNewModal} />
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 outline-none sm:px-6"
      >
        <section aria-labelledby="intro-title" className="max-w-2xl">
          <p className="text-sm font-semibold uppercase tracking-[0.2em] text-gold">Community rewards</p>
          <h1 id="intro-title" className="mt-3 text-4xl font-extrabold tracking-tight text-white sm:text-5xl">
            Earn Mana for every post the community loves.
          </h1>
          <p className="mt-4 text-lg leading-relaxed text-violet-100/85">
            Link your social account, post about the community with the programme&apos;s keywords or tag the
            official accounts, and earn Mana for the likes, replies, reposts and quotes your posts receive.
            Linked members earn triple Mana, and every friend you refer earns you 50.
          </p>
          {referrer ? (
            <p className="mt-6 inline-flex rounded-full border border-gold/40 bg-gold/10 px-4 py-1.5 text-sm text-gold">
              Invited by @{referrer}
            </p>
          ) : null}
        </section>
        <section aria-label="How Mana works" className="mt-12 grid gap-4 sm:grid-cols-3">
          <Fact
            title="Post"
            text="Write about the community. Posts that use the keywords or tag the official accounts are tracked."
          />
          <Fact
            title="Engage"
            text="Likes, replies, reposts and quotes on your tracked posts turn into Mana, every day."
          />
          <Fact
            title="Climb"
            text="Weekly and all-time ranks, with every point of Mana explained line by line."
          />
        </section>
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

function Fact({ title, text }: { title: string; text: string }) {
  return (
    <div className="rounded-2xl border border-white/10 bg-dusk/60 p-5">
      <h2 className="text-lg font-bold text-white">{title}</h2>
      <p className="mt-2 text-sm leading-relaxed text-violet-100/80">{text}</p>
    </div>
  );
}
