// The web app's page budget (issue 8): initial JavaScript against a bare Vite + React + React Router + TanStack
// Query app built with the same versions, and the four Lighthouse scores (mobile) of the built app served by
// the real server, driving the system Chromium.
import fs from 'node:fs/promises';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromiumPath, offlineChromiumFlags } from '../e2e/support/chromium';
import { demoCaughtUp } from '../e2e/support/demo';
import { startServer } from '../e2e/support/server';
import { buildBareApp, initialJsGzipBytes } from './lib/bare-app';
import { repoRoot } from './lib/spawn-server';
import { benchRounds, fmt, median } from './lib/stats';

const rounds = benchRounds();
const GOAL_RATIO = 1.3;
const CEILING_RATIO = 1.5;
const categories = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const chromeFlags = ['--headless=new', ...offlineChromiumFlags];

/** Initial-JS gzip bytes of apps/web/dist (built by `npm run bench`) over the bare app's. */
export async function bundleRatio(): Promise<{ web: number; bare: number; ratio: number }> {
  const webDist = path.join(repoRoot, 'apps/web/dist');
  const bareDist = await buildBareApp();
  try {
    const web = await initialJsGzipBytes(webDist);
    const bare = await initialJsGzipBytes(bareDist);
    return { web: web.bytes, bare: bare.bytes, ratio: web.bytes / bare.bytes };
  } finally {
    await fs.rm(bareDist, { recursive: true, force: true });
  }
}

type Scores = Record<(typeof categories)[number], number> & {
  failing: string[];
  /** Total blocking time and main-thread work, ms (issue 33's goal: TBT ≤ 150 ms). */
  tbtMs: number;
  mainThreadMs: number;
};

/** Lighthouse now and then fails to record a trace on a loaded machine (NO_NAVSTART and the like): run again. */
const ATTEMPTS = 3;

/** Lighthouse (default config: mobile, simulated throttling) on `url`; scores 0–100 and the audits below 1. */
export async function lighthouseScores(url: string): Promise<Scores> {
  for (let attempt = 1; ; attempt++) {
    const chrome = await chromeLauncher.launch({ chromePath: chromiumPath, chromeFlags });
    try {
      const result = await lighthouse(url, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: [...categories],
      });
      if (!result) throw new Error('Lighthouse returned no result');
      const { lhr } = result;
      if (lhr.runtimeError) {
        if (attempt < ATTEMPTS) continue;
        throw new Error(
          `Lighthouse failed ${ATTEMPTS} times: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`,
        );
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const failing = Object.values(lhr.audits)
        .filter(
          (audit) => audit.score !== null && audit.score < 1 && audit.scoreDisplayMode !== 'informative',
        )
        .filter((audit) => audit.scoreDisplayMode !== 'notApplicable' && audit.scoreDisplayMode !== 'manual')
        .map((audit) => `${audit.id} (${audit.score})`);
      return {
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
        failing,
        tbtMs: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
        mainThreadMs: Math.round(lhr.audits['mainthread-work-breakdown']?.numericValue ?? NaN),
      };
    } finally {
      chrome.kill();
    }
  }
}

/** `npm run bench -- web-budget`: prints the bundle ratio and the four Lighthouse scores. */
export async function webBudget(): Promise<void> {
  const bundle = await bundleRatio();
  const verdict =
    bundle.ratio <= GOAL_RATIO
      ? 'within the goal'
      : bundle.ratio <= CEILING_RATIO
        ? 'over the goal'
        : 'OVER THE CEILING';
  console.log(
    `web initial JS (gzip): ${fmt(bundle.web / 1024)} KiB vs bare app ${fmt(bundle.bare / 1024)} KiB = ` +
      `${fmt(bundle.ratio)}× (goal ≤${GOAL_RATIO}×, ceiling ${CEILING_RATIO}×: ${verdict})`,
  );
  const server = await startServer({ LOG_LEVEL: 'info' });
  try {
    // The demo replays its history for the first seconds after a start, on the same two cores as Chromium: a
    // first run then timed the browser's tasks against the server's replay (the first run of each set missed the
    // goal, issue 33). The page is measured once the server is idle, as on a phone that shares no CPU with it.
    await demoCaughtUp(server, 300_000);
    // The performance score moves with the machine's load: report the median of several runs, and each run.
    const runs: Scores[] = [];
    for (let round = 0; round < rounds; round++) runs.push(await lighthouseScores(`${server.origin}/`));
    const med = (category: (typeof categories)[number]) => median(runs.map((run) => run[category]));
    const failing = [
      ...new Set(runs.flatMap((run) => run.failing.map((audit) => audit.replace(/ \(.*/, '')))),
    ];
    console.log(
      `Lighthouse (mobile) on /, median of ${rounds}: performance ${med('performance')} ` +
        `(runs ${runs.map((run) => run.performance).join(', ')}), accessibility ${med('accessibility')}, ` +
        `best practices ${med('best-practices')}, SEO ${med('seo')}; total blocking time ` +
        `${runs.map((run) => run.tbtMs).join(', ')} ms [goal ≤ 150 ms], main-thread work ` +
        `${runs.map((run) => run.mainThreadMs).join(', ')} ms` +
        (failing.length > 0 ? `; audits below 1 in some run: ${failing.join(', ')}` : ''),
    );
  } finally {
    await server.stop();
  }
}
