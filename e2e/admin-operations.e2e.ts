import { describe } from 'vitest';
import { checkExportSection, screenshotExportSection } from './admin/export-steps';
import { checkFairnessSection, screenshotFairnessSection } from './admin/fairness-steps';
import { checkLedgerSection, screenshotLedgerSection } from './admin/ledger-steps';
import { consoleSectionsSuite } from './admin/sections-suite';
import { checkWorkerSection, screenshotWorkerSection } from './admin/worker-steps';
import { hasChromium } from './support/chromium';

/**
 * The console's sections that watch over the programme (fairness signals with the demo's planted ring, the worker
 * and the network, the rewards export, the weekly ledger), on a demo server of their own
 * (e2e/admin/sections-suite.ts).
 */
describe.skipIf(!hasChromium)(
  'the console’s fairness, worker, export and ledger sections in the browser',
  () => {
    consoleSectionsSuite([
      { name: 'fairness signals', check: checkFairnessSection, screenshot: screenshotFairnessSection },
      { name: 'worker and network', check: checkWorkerSection, screenshot: screenshotWorkerSection },
      { name: 'rewards export', check: checkExportSection, screenshot: screenshotExportSection },
      { name: 'ledger', check: checkLedgerSection, screenshot: screenshotLedgerSection },
    ]);
  },
);
