// The bare app of bench/fixtures/bare-app, built with the workspace's own Vite, and the initial-JavaScript
// measure shared by the bundle budget and the first-paint benchmark.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { repoRoot } from './spawn-server';

const fixture = path.join(repoRoot, 'bench/fixtures/bare-app');

/**
 * Builds the bare app into a fresh temporary directory and returns it (index.html + assets/).
 * `base` is the URL path it will be served under (e.g. '/bench/bare-page/').
 */
export async function buildBareApp(base = '/'): Promise<string> {
  const outDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-bare-app-'));
  await build({
    root: fixture,
    base,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir, emptyOutDir: true, sourcemap: false, target: 'es2022' },
  });
  return outDir;
}

/**
 * Gzipped bytes of the JavaScript a first visit must load: the entry scripts and modulepreloads that index.html
 * names (lazy chunks are not counted; they load on demand).
 */
export async function initialJsGzipBytes(distDir: string): Promise<{ bytes: number; files: string[] }> {
  const html = await fs.readFile(path.join(distDir, 'index.html'), 'utf8');
  const urls = [
    ...html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g),
  ].map((match) => match[1] as string);
  const files = [...new Set(urls)].map((url) => url.replace(/^.*?(assets\/)/, '$1'));
  let bytes = 0;
  for (const file of files)
    bytes += gzipSync(await fs.readFile(path.join(distDir, file)), { level: 9 }).length;
  return { bytes, files };
}
