import { useMemo } from 'react';
import { useDisclosure, type Disclosure } from '../components/ui/use-disclosure';
import type { NavActions } from '../features/navigation/components/nav-items';
import { preloadModal } from './lazy-modals';
import { useGlobalOpener } from './use-global-opener';

export type MainPageModals = {
  updates: Disclosure;
  faq: Disclosure;
  howToEarn: Disclosure;
  maker: Disclosure;
  video: Disclosure;
  actions: NavActions;
};

/**
 * The main page's modals (SPEC §2): one disclosure each, the top bar's actions, and the global window openers
 * openUpdatesModal, openFAQModal, openHowToEarnManaModal and openMakerModal.
 */
export function useMainPageModals(): MainPageModals {
  const updates = useDisclosure();
  const faq = useDisclosure();
  const howToEarn = useDisclosure();
  const maker = useDisclosure();
  const video = useDisclosure();
  useGlobalOpener('openUpdatesModal', updates.open);
  useGlobalOpener('openFAQModal', faq.open);
  useGlobalOpener('openHowToEarnManaModal', howToEarn.open);
  useGlobalOpener('openMakerModal', maker.open);
  const actions = useMemo<NavActions>(
    () => ({
      openUpdates: updates.open,
      openFaq: faq.open,
      openHowToEarn: howToEarn.open,
      openMaker: maker.open,
      openVideo: video.open,
      preload: preloadModal,
    }),
    [updates.open, faq.open, howToEarn.open, maker.open, video.open],
  );
  return { updates, faq, howToEarn, maker, video, actions };
}
