import { useCallback, useEffect } from 'react';
import { useStartLinking } from '../../account/api/start-linking';
import { getPendingReferrer } from '../../referrals/pending-referrer';

/** Starts linking with the pending referrer as `referrerSlug`; stays busy while the browser leaves for the network. */
export function useLinkAccount() {
  const { mutate, reset, isPending, isSuccess } = useStartLinking();
  const link = useCallback(() => mutate(getPendingReferrer()), [mutate]);

  // Back from the network's sign-in page, the browser may restore this page from its cache, still "busy": free it.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, [reset]);

  return { link, linking: isPending || isSuccess };
}
