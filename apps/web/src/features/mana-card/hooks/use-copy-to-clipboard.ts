import { errorMessages } from '@manaboard/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { COPIED_FLAG_MS, MESSAGE_DISPLAY_MS } from '../../../config/constants';

/** Copies text; "Copied" shows for 2 s, a failure shows CLIPBOARD_FAILED's message for 5 s (SPEC §8–§9). */
export function useCopyToClipboard() {
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = useCallback(async (text: string) => {
    clearTimeout(timer.current);
    try {
      // navigator.clipboard is missing outside secure contexts; that is a failure like any other.
      if (!navigator.clipboard) throw new Error('Clipboard unavailable');
      await navigator.clipboard.writeText(text);
      setError(null);
      setCopied(true);
      timer.current = setTimeout(() => setCopied(false), COPIED_FLAG_MS);
    } catch {
      setCopied(false);
      setError(errorMessages.CLIPBOARD_FAILED);
      timer.current = setTimeout(() => setError(null), MESSAGE_DISPLAY_MS);
    }
  }, []);

  return { copied, error, copy };
}
