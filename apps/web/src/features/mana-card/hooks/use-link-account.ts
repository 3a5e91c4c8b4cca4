import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { userMessageFor } from '../../../lib/api-error';
import { publicConfigQueryOptions } from '../../../lib/public-config';
import { networkWeb } from '../../../networks/networks';
import { useStartLinking } from '../api/start-linking';
import { getPendingReferrer } from '../../../lib/pending-referrer';

/** The open handle form: send the handle, close it, and the last failure as the member should read it. */
export type HandleFormState = {
  submit: (handle: string) => void;
  cancel: () => void;
  error: string | null;
};

/**
 * Starts linking with the pending referrer as `referrerSlug`; stays busy while the browser leaves for the network.
 * On a network whose sign-in starts from the member's handle, `link` opens the card's handle form instead, and
 * the form's submit starts linking with that handle.
 */
export function useLinkAccount() {
  const { mutate, reset, isPending, isSuccess, error } = useStartLinking();
  const network = networkWeb(useQuery(publicConfigQueryOptions()).data?.data.socialNetwork);
  const asksHandle = network.handleForm !== null;
  const [askingHandle, setAskingHandle] = useState(false);
  const link = useCallback(() => {
    if (asksHandle) setAskingHandle(true);
    else mutate({ referrerSlug: getPendingReferrer() });
  }, [asksHandle, mutate]);
  const submit = useCallback(
    (handle: string) => mutate({ referrerSlug: getPendingReferrer(), handle }),
    [mutate],
  );
  const cancel = useCallback(() => {
    setAskingHandle(false);
    reset();
  }, [reset]);

  // Back from the network's sign-in page, the browser may restore this page from its cache, still "busy": free it.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  const handleForm: HandleFormState | null =
    asksHandle && askingHandle ? { submit, cancel, error: error ? userMessageFor(error) : null } : null;
  return { link, linking: isPending || isSuccess, handleForm };
}
