import './app/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prefetchFirstScreen } from './app/first-screen';
import { AppProviders } from './app/providers';
import { AppRouter } from './app/router';
import { createQueryClient } from './lib/query-client';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
const client = createQueryClient();
// Not a top-level await: that would make the bundler split the first load into many chunks.
void prefetchFirstScreen(client, window.location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <AppProviders client={client}>
        <AppRouter />
      </AppProviders>
    </StrictMode>,
  ),
);
