import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

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
  },
  server: { proxy: Object.fromEntries(proxied.map((path) => [path, api])) },
});
