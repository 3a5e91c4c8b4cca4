import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

type ModuleInfo = { isEntry: boolean; importers: readonly string[] } | null;
const firstLoad = new Map<string, boolean>();

/** Whether a module is reached from the entry through static imports only (memoised per build). */
function inFirstLoad(id: string, info: (id: string) => ModuleInfo, path = new Set<string>()): boolean {
  const known = firstLoad.get(id);
  if (known !== undefined) return known;
  const module = info(id);
  if (!module) return false;
  if (module.isEntry) return true;
  if (path.has(id)) return false; // a cycle: decided by the other importers
  path.add(id);
  const reached = module.importers.some((importer) => inFirstLoad(importer, info, path));
  path.delete(id);
  firstLoad.set(id, reached);
  return reached;
}

const api = 'http://localhost:3000';
const proxied = [
  '/api',
  '/csrf-token',
  '/auth/twitter',
  '/me',
  '/referrals',
  '/x-sim',
  '/healthz',
  '/readyz',
];

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // Every browser the app supports (es2022) has modulepreload: no polyfill in the first load.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // Everything the main page loads statically is one chunk (the entry), so the lazy chunks (modals, the
        // operator console) import what they share with it from there. Without this group Rolldown puts modules
        // the entry shares with a lazy chunk into extra chunks the first load must fetch as well
        // (rolldown/rolldown#10731): with the console that cost the main page 3.7 kB gzip.
        codeSplitting: {
          groups: [{ name: (id, ctx) => (inFirstLoad(id, (m) => ctx.getModuleInfo(m)) ? 'app' : null) }],
        },
      },
    },
  },
  server: { proxy: Object.fromEntries(proxied.map((path) => [path, api])) },
});
