import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { accountKeys } from './account';

/**
 * SPEC §4: the account is re-checked on storage events (another tab linked or unlinked) and on window focus;
 * the 30 s interval lives in the query options.
 */
export function useAccountRechecks(): void {
  const client = useQueryClient();
  useEffect(() => {
    const recheck = () => void client.invalidateQueries({ queryKey: accountKeys.all });
    window.addEventListener('storage', recheck);
    window.addEventListener('focus', recheck);
    return () => {
      window.removeEventListener('storage', recheck);
      window.removeEventListener('focus', recheck);
    };
  }, [client]);
}
