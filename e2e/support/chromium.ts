import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { testEnv } from '../../apps/server/src/config/test-env';

/** The system Chromium (never a downloaded one): CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const chromiumPath = testEnv.chromiumPath;
export const hasChromium = fs.existsSync(chromiumPath);
const inCi = testEnv.ci;

if (!hasChromium) {
  const message = 'browser tests skipped: no Chromium (apt-get install chromium)';
  if (inCi) throw new Error(`${message} — CI must run them`);
  console.warn(`${message}\n  (looked for ${chromiumPath}; set CHROMIUM_PATH to use another)`);
}

/** Flags that work here as root, offline: no sandbox, no GPU, no background calls to Google. */
export const offlineChromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', ...offlineChromiumFlags],
    headless: true,
  });
}
