import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The system Chromium (never a downloaded one): CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const hasChromium = fs.existsSync(chromiumPath);
const inCi = process.env.CI === 'true';

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
