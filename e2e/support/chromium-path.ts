import fs from 'node:fs';
import { testEnv } from '../../apps/server/src/config/test-env';

/** The system Chromium (never a downloaded one): CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const chromiumPath = testEnv.chromiumPath;
export const hasChromium = fs.existsSync(chromiumPath);

/**
 * Why the browser tests are skipped here, in one line (null when Chromium is there). Outside CI the e2e project's
 * global setup prints it once per run; in CI (`CI=true`) chromium.ts fails every browser file instead.
 */
export const chromiumSkipReason = hasChromium
  ? null
  : `browser tests skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`;
