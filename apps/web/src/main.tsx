import './app/zod-jitless';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ErrorBoundary } from 'react-error-boundary';
import { prefetchFirstScreen } from './app/first-screen';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { ReloadFallback } from './components/ui/reload-fallback';
import { createQueryClient } from './lib/query-client';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
const client = createQueryClient();
const pageFailed = (
  <ReloadFallback message="Something went wrong while loading the page." className="min-h-screen px-6" />
);
// Not a top-level await: that would make the bundler split the first load into many chunks. Whatever the
// first-screen calls do, the page renders.
void prefetchFirstScreen(client, window.location.pathname)
  .catch(() => undefined)
  .then(() => {
    const app = createRoot(root);
    // A transition: React renders the first screen in slices of a few milliseconds and commits it whole, once,
    // instead of in one long task that a slow phone cannot answer a tap during (issue 33). What shows is the same.
    startTransition(() =>
      app.render(
        <StrictMode>
          <ErrorBoundary fallback={pageFailed}>
            <AppProviders client={client}>
              <AppRouter />
            </AppProviders>
          </ErrorBoundary>
        </StrictMode>,
      ),
    );
  });
