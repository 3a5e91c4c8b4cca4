import { lazy } from 'react';

// Modals stay out of the first load: each is its own chunk, fetched on intent (pointer or focus on its
// trigger) or at the latest on first open. Later modals (FAQ, How to earn Mana, maker tool) join this file.
const loadWhatsNewModal = () => import('../features/announcements/components/whats-new-modal');

export const WhatsNewModal = lazy(() => loadWhatsNewModal().then((m) => ({ default: m.WhatsNewModal })));

/** Warms the chunk; a failure here is harmless (opening the modal loads it again and reports properly). */
export function preloadWhatsNewModal(): void {
  loadWhatsNewModal().catch(() => undefined);
}
