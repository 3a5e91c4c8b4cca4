import { useEffect, useState } from 'react';

/** SPEC §8's message when the clipboard refuses. */
export const CLIPBOARD_FAILED = 'Failed to copy to clipboard';

/** Copies a text; `copied` shows for 2 s (SPEC §9's copied flag), `failed` says the clipboard refused. */
export function useCopyText() {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state !== 'copied') return;
    const timer = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = (text: string) => {
    navigator.clipboard.writeText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return { copy, copied: state === 'copied', failed: state === 'failed' };
}
