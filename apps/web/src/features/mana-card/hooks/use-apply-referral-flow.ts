import { displayHandle, errorMessages } from '@manaboard/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { APPLY_SUCCESS_REFRESH_MS, MESSAGE_DISPLAY_MS } from '../../../config/constants';
import { userMessageFor } from '../../../lib/api-error';
import { useApplyReferral } from '../api/apply-referral';

export type ApplyPhase = 'idle' | 'applying' | 'success' | 'error';

export type ApplyReferralFlow = {
  phase: ApplyPhase;
  message: string | null;
  /** Apply the typed handle, or, while an error shows, only dismiss it (SPEC §4). */
  submit: (input: string) => void;
};

/**
 * The apply flow of SPEC §4: idle → "Applying..." → success (message; `onApplied` 1 s later refreshes the
 * account data) or error (message for 5 s). Blank input is refused before any call (SPEC §5).
 */
export function useApplyReferralFlow(onApplied: () => void): ApplyReferralFlow {
  const apply = useApplyReferral();
  const [phase, setPhase] = useState<ApplyPhase>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);
  const onAppliedRef = useRef(onApplied);
  useEffect(() => {
    onAppliedRef.current = onApplied;
  }, [onApplied]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const later = useCallback((ms: number, task: () => void) => {
    timers.current.push(setTimeout(task, ms));
  }, []);
  const reset = useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current = [];
    setPhase('idle');
    setMessage(null);
  }, []);
  const show = useCallback(
    (next: 'success' | 'error', text: string) => {
      reset();
      setPhase(next);
      setMessage(text);
      later(MESSAGE_DISPLAY_MS, reset);
    },
    [later, reset],
  );

  const { mutate } = apply;
  const submit = useCallback(
    (input: string) => {
      if (phase === 'error') return reset();
      if (phase === 'applying') return;
      if (!input.trim()) return show('error', errorMessages.EMPTY_INPUT);
      reset();
      setPhase('applying');
      mutate(input, {
        onSuccess: ({ referrerHandle }) => {
          show('success', `Referral applied: ${displayHandle(referrerHandle)} is now your referrer.`);
          later(APPLY_SUCCESS_REFRESH_MS, () => onAppliedRef.current());
        },
        onError: (error) => show('error', userMessageFor(error)),
      });
    },
    [later, mutate, phase, reset, show],
  );

  return { phase, message, submit };
}
