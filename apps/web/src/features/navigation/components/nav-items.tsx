import type { Branding } from '@manaboard/contract';

/** What the top bar's links do; the page owns the modals they open. */
export type NavActions = {
  openHowToEarn: () => void;
  openFaq: () => void;
  openUpdates: () => void;
  openMaker: () => void;
  openVideo: () => void;
  /** Pointer or focus on a modal's link: fetch its chunk before the click. */
  preload: (modal: 'how-to-earn' | 'faq' | 'updates' | 'maker' | 'video') => void;
};

type NavItemsProps = {
  branding: Branding | undefined;
  actions: NavActions;
  /** Called after any item is chosen (the slide-in menu closes on navigation). */
  onNavigate?: () => void;
  itemClass: string;
};

/**
 * The top bar's links (SPEC §2), in order: How to Participate, FAQ, Updates, Shareable Content (external, new
 * tab), the maker tool, and Video (narrow screens only: from 1280 px the video sits beside the card).
 */
export function NavItems({ branding, actions, onNavigate, itemClass }: NavItemsProps) {
  const choose = (action: () => void) => () => {
    onNavigate?.();
    action();
  };
  const intent = (modal: Parameters<NavActions['preload']>[0]) => ({
    onPointerEnter: () => actions.preload(modal),
    onFocus: () => actions.preload(modal),
  });
  return (
    <>
      <li>
        <button
          type="button"
          className={itemClass}
          onClick={choose(actions.openHowToEarn)}
          {...intent('how-to-earn')}
        >
          How to Participate
        </button>
      </li>
      <li>
        <button type="button" className={itemClass} onClick={choose(actions.openFaq)} {...intent('faq')}>
          FAQ
        </button>
      </li>
      <li>
        <button
          type="button"
          className={itemClass}
          onClick={choose(actions.openUpdates)}
          {...intent('updates')}
        >
          Updates
        </button>
      </li>
      <li>
        <a
          href={branding?.links.shareableContent}
          target="_blank"
          rel="noopener noreferrer"
          className={itemClass}
          onClick={onNavigate}
        >
          Shareable Content<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </li>
      <li>
        <button type="button" className={itemClass} onClick={choose(actions.openMaker)} {...intent('maker')}>
          Maker Tool
        </button>
      </li>
      {branding?.video ? (
        <li className="xl:hidden">
          <button
            type="button"
            className={itemClass}
            onClick={choose(actions.openVideo)}
            {...intent('video')}
          >
            Video
          </button>
        </li>
      ) : null}
    </>
  );
}

type ExternalButtonsProps = { branding: Branding | undefined; className: string; onNavigate?: () => void };

/** The community-site and Pitchdeck buttons (hidden in the bar at 840 px and below). */
export function ExternalButtons({ branding, className, onNavigate }: ExternalButtonsProps) {
  return (
    <>
      <a
        href={branding?.links.communitySite}
        target="_blank"
        rel="noopener noreferrer"
        className={className}
        onClick={onNavigate}
      >
        Community Site<span className="sr-only"> (opens in a new tab)</span>
      </a>
      <a
        href={branding?.links.pitchdeck}
        target="_blank"
        rel="noopener noreferrer"
        className={className}
        onClick={onNavigate}
      >
        Pitchdeck<span className="sr-only"> (opens in a new tab)</span>
      </a>
    </>
  );
}
