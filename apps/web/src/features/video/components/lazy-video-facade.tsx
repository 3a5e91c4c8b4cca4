import { lazyWithPreload } from '../../../lib/lazy-with-preload';

// The inline video shows from 1280 px only (SPEC §9): a phone never loads it (nor its poster).
const videoFacade = lazyWithPreload(
  () => import('./video-facade'),
  (m) => m.VideoFacade,
);

export const LazyVideoFacade = videoFacade.Component;
export const preloadVideoFacade = videoFacade.preload;

/** Holds the facade's place while its chunk loads, at its size, so nothing moves when it arrives. */
export function VideoPlaceholder() {
  return <div className="aspect-video w-full rounded-3xl border border-white/10 bg-night" />;
}
