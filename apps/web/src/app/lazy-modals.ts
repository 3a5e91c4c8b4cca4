import { lazyWithPreload } from '../lib/lazy-with-preload';

// Modals stay out of the first load: each is its own chunk, fetched on intent (pointer or focus on its
// trigger) or at the latest on first open.
const modals = {
  updates: lazyWithPreload(
    () => import('../features/announcements/components/whats-new-modal'),
    (m) => m.WhatsNewModal,
  ),
  faq: lazyWithPreload(
    () => import('../features/faq/components/faq-modal'),
    (m) => m.FaqModal,
  ),
  'how-to-earn': lazyWithPreload(
    () => import('../features/how-to-earn/components/how-to-earn-modal'),
    (m) => m.HowToEarnModal,
  ),
  maker: lazyWithPreload(
    () => import('../features/maker/components/maker-modal'),
    (m) => m.MakerModal,
  ),
  video: lazyWithPreload(
    () => import('../features/video/components/video-overlay'),
    (m) => m.VideoOverlay,
  ),
};

export type LazyModalName = keyof typeof modals;

export const WhatsNewModal = modals.updates.Component;
export const FaqModal = modals.faq.Component;
export const HowToEarnModal = modals['how-to-earn'].Component;
export const MakerModal = modals.maker.Component;
export const VideoOverlay = modals.video.Component;

/** Warms a modal's chunk (see lazyWithPreload). */
export function preloadModal(name: LazyModalName): void {
  void modals[name].preload();
}
