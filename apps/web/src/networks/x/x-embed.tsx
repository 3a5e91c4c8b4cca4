import type { TrackedPost } from '@manaboard/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  EMBED_MIN_HEIGHT_PX,
  EMBED_SCRIPT_POLL_MS,
  EMBED_SCRIPT_POLL_TRIES,
  EMBED_SIZE_CHECK_FOR_MS,
  EMBED_SIZE_CHECK_MS,
} from '../../config/constants';

type XWidgets = {
  createTweet: (id: string, target: HTMLElement, options: Record<string, unknown>) => Promise<unknown>;
};
declare global {
  interface Window {
    twttr?: { widgets?: XWidgets };
  }
}

export const X_WIDGETS_SRC = 'https://platform.twitter.com/widgets.js';

/** Adds X's embed script to the page once. */
function injectScript(): void {
  if (document.querySelector(`script[src="${X_WIDGETS_SRC}"]`)) return;
  const script = document.createElement('script');
  script.src = X_WIDGETS_SRC;
  script.async = true;
  document.head.appendChild(script);
}

/** X's `twttr.widgets`, polled every 100 ms up to 50 tries (SPEC §7); null when it never came (blocked). */
function waitForWidgets(isCancelled: () => boolean): Promise<XWidgets | null> {
  return new Promise((resolve) => {
    let tries = 0;
    const poll = () => {
      const widgets = window.twttr?.widgets;
      if (widgets) return resolve(widgets);
      if (isCancelled() || ++tries >= EMBED_SCRIPT_POLL_TRIES) return resolve(null);
      setTimeout(poll, EMBED_SCRIPT_POLL_MS);
    };
    poll();
  });
}

type EmbedState = 'loading' | 'embedded' | 'fallback';

/**
 * A post through X's embed script (`createTweet`, SPEC §4, §7): its size checked every 200 ms for 15 s and valid
 * only at 100 px or more. Until then, and whenever it fails, `fallback` (our own card) stands in.
 */
export function XEmbed({ statusId, fallback }: { post: TrackedPost; statusId: string; fallback: ReactNode }) {
  const [state, setState] = useState<EmbedState>('loading');
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      injectScript();
      const widgets = await waitForWidgets(() => cancelled);
      const element = target.current;
      if (cancelled) return;
      if (!widgets || !element) return setState('fallback');
      try {
        await widgets.createTweet(statusId, element, { theme: 'dark', dnt: true, conversation: 'none' });
      } catch {
        if (!cancelled) setState('fallback');
        return;
      }
      const started = Date.now();
      const check = () => {
        if (cancelled) return;
        if (element.getBoundingClientRect().height >= EMBED_MIN_HEIGHT_PX) return setState('embedded');
        if (Date.now() - started >= EMBED_SIZE_CHECK_FOR_MS) return setState('fallback');
        timer = setTimeout(check, EMBED_SIZE_CHECK_MS);
      };
      check();
    };
    void run();
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [statusId]);

  return (
    <div className="relative" data-embed-state={state}>
      {state === 'embedded' ? null : fallback}
      {state === 'fallback' ? null : (
        <div
          ref={target}
          aria-hidden={state === 'embedded' ? undefined : true}
          className={state === 'embedded' ? '' : 'pointer-events-none invisible absolute inset-x-0 top-0'}
        />
      )}
    </div>
  );
}
