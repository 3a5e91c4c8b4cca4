import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Writes a small built web app shaped as Vite writes it (index.html, a hashed asset, a public file) into a new
 * temporary directory, so server tests do not depend on a web build. Returns the directory.
 */
export async function writeMinimalWebDist(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-dist-'));
  await fs.mkdir(path.join(dir, 'assets'), { recursive: true });
  await fs.writeFile(
    path.join(dir, 'index.html'),
    [
      '<!doctype html><title>Manaboard</title>',
      '    <link rel="preload" href="/api/public/branding" as="fetch" crossorigin="anonymous" />',
      '    <link rel="preload" href="/api/mana?limit=20" as="fetch" crossorigin="anonymous" />',
      '    <link rel="icon" type="image/svg+xml" href="/favicon.svg" />',
      '<div id="root"></div>',
    ].join('\n'),
  );
  await fs.writeFile(
    path.join(dir, 'assets', 'index-abc123.js'),
    `console.log(${JSON.stringify('x'.repeat(4000))});`,
  );
  await fs.writeFile(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}
