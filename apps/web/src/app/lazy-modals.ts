import { lazy } from 'react';

// Modals stay out of the first load: each is its own chunk, fetched on intent (pointer or focus on its
// trigger) or at the latest on first open.
const loaders = {
  updates: () => import('../features/announcements/components/whats-new-modal'),
  faq: () => import('../features/faq/components/faq-modal'),
  'how-to-earn': () => import('../features/how-to-earn/components/how-to-earn-modal'),
  maker: () => import('../features/maker/components/maker-modal'),
  video: () => import('../features/video/components/video-overlay'),
} as const;

export type LazyModalName = keyof typeof loaders;

export const WhatsNewModal = lazy(() => loaders.updates().then((m) => ({ default: m.WhatsNewModal })));
export const FaqModal = lazy(() => loaders.faq().then((m) => ({ default: m.FaqModal })));
export const HowToEarnModal = lazy(() =>
  loaders['how-to-earn']().then((m) => ({ default: m.HowToEarnModal })),
);
export const MakerModal = lazy(() => loaders.maker().then((m) => ({ default: m.MakerModal })));
export const VideoOverlay = lazy(() => loaders.video().then((m) => ({ default: m.VideoOverlay })));

/** Warms a modal's chunk; a failure here is harmless (opening the modal loads it again and reports properly). */
export function preloadModal(name: LazyModalName): void {
  loaders[name]().catch(() => undefined);
}

/** Kept for callers of the first modal. */
export function preloadWhatsNewModal(): void {
  preloadModal('updates');
}
