import { lazy, type ComponentType } from 'react';

/**
 * A component kept out of the first load (React.lazy) with a way to warm its chunk before it renders, on intent
 * or when the data says it will be needed. A failed warm-up is harmless: rendering loads the chunk again, and
 * a failure there reaches the nearest error boundary.
 */
export function lazyWithPreload<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): { Component: ComponentType<P>; preload: () => Promise<void> } {
  return {
    Component: lazy(() => load().then((module) => ({ default: pick(module) }))),
    preload: () =>
      load().then(
        () => undefined,
        () => undefined,
      ),
  };
}
