import { useQuery } from '@tanstack/react-query';
import { publicConfigQueryOptions } from '../../../lib/public-config';
import { networkWeb } from '../../../networks/networks';
import { useCardRewards } from '../hooks/use-card-rewards';
import type { HandleFormState } from '../hooks/use-link-account';
import { CardFrame } from './card-frame';

type UnlinkedCardProps = {
  pendingReferrer: string | null;
  linking: boolean;
  onLink: () => void;
  onCancelReferral: () => void;
  /** The open handle form, shown in place of the card's button (networks whose sign-in starts from a handle). */
  handleForm?: HandleFormState | null;
};

/**
 * The card before linking (SPEC §2): EARN MORE MANA with the triple-Mana and referral message; the whole card
 * is one button that starts linking. A pending referrer shows as "Referred by {handle}", which cancels it.
 * The button is named by its own visible content (title, message, call to action), read once: a shorter
 * aria-label would hide the words a voice-control user sees and says (WCAG 2.5.3, label in name).
 */
export function UnlinkedCard({
  pendingReferrer,
  linking,
  onLink,
  onCancelReferral,
  handleForm = null,
}: UnlinkedCardProps) {
  const rewards = useCardRewards();
  const network = networkWeb(useQuery(publicConfigQueryOptions()).data?.data.socialNetwork);
  const HandleForm = network.handleForm;
  if (handleForm && HandleForm) {
    return (
      <CardFrame label="Mana card" busy={linking}>
        <HandleForm
          onSubmit={handleForm.submit}
          onCancel={handleForm.cancel}
          error={handleForm.error}
          busy={linking}
        />
      </CardFrame>
    );
  }
  return (
    <CardFrame label="Mana card" busy={linking}>
      {/* With a pending referrer, room is kept at the bottom for its pill (a sibling: buttons cannot nest). */}
      <button
        type="button"
        onClick={onLink}
        disabled={linking}
        className={`group flex h-full w-full flex-col items-center justify-center gap-4 rounded-3xl px-2 text-center transition hover:bg-white/5 disabled:cursor-wait focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-gold ${pendingReferrer ? 'pb-12' : ''}`}
      >
        <img
          src="/art/mana-crystals.svg"
          alt=""
          width={240}
          height={200}
          className="h-auto w-3/5 transition group-hover:scale-105"
        />
        <span className="text-[clamp(1.6rem,8vw,2.25rem)] font-black uppercase leading-none tracking-wide text-gold drop-shadow">
          Earn more Mana
        </span>
        <span className="text-sm leading-relaxed text-violet-100/90 sm:text-base">
          Link your {network.accountNoun} to earn{' '}
          <strong className="text-white">{rewards.multiplier} Mana</strong> on your posts, plus{' '}
          <strong className="text-white">{rewards.referralReward} Mana</strong> for every friend you refer.
        </span>
        <span className="rounded-full bg-violet-700 px-5 py-2 text-sm font-bold text-white shadow-lg shadow-mana/40 group-hover:bg-violet-600">
          {linking ? 'Linking…' : 'Link your account'}
        </span>
      </button>
      {pendingReferrer ? (
        <button
          type="button"
          onClick={onCancelReferral}
          title="Cancel this referral"
          className="absolute bottom-[1%] left-1/2 z-10 flex max-w-full -translate-x-1/2 items-center gap-2 rounded-full border border-gold/50 bg-ink/90 px-4 py-1.5 text-sm font-semibold text-gold hover:bg-gold/15 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          <span className="truncate">Referred by {pendingReferrer}</span>
          <span aria-hidden="true">✕</span>
          <span className="sr-only">(cancel referral)</span>
        </button>
      ) : null}
    </CardFrame>
  );
}
