import { useQuery } from '@tanstack/react-query';
import { publicConfigQueryOptions } from '../../lib/public-config';

/** A small, unobtrusive badge when the server runs on the simulated X (no real accounts involved). */
export function DemoBadge() {
  const { data } = useQuery(publicConfigQueryOptions());
  if (!data?.data.simulated) return null;
  return (
    <span
      className="hidden rounded-full border border-gold/40 px-2.5 py-1 text-xs font-medium text-gold/90 sm:inline"
      title="This server talks to a simulated X: no real accounts are involved."
    >
      Demo: simulated X
    </span>
  );
}
