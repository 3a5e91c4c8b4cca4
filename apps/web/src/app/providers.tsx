import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createQueryClient } from '../lib/query-client';

/**
 * Providers every page needs: server state lives in TanStack Query only. `client` is the one main.tsx has
 * already started the first screen's calls on; without it (tests) each mount gets its own.
 */
export function AppProviders({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [own] = useState(() => client ?? createQueryClient());
  return <QueryClientProvider client={own}>{children}</QueryClientProvider>;
}
