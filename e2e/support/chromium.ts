import { chromium, type Browser } from 'playwright-core';
import { testEnv } from '../../apps/server/src/config/test-env';
import { chromiumPath, chromiumSkipReason } from './chromium-path';

export { chromiumPath, chromiumSkipReason, hasChromium } from './chromium-path';

// CI must run the browser tests: there, a missing Chromium fails each browser file as it is imported.
if (chromiumSkipReason && testEnv.ci) throw new Error(`${chromiumSkipReason} — CI must run them`);

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
