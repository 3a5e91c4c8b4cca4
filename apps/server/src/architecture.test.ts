import { beforeAll, describe, expect, it } from 'vitest';
import { importCircles, importGraph, type ImportGraph } from './test/import-graph';

const SERVER = 'apps/server/src/';
const DEV = 'apps/server/dev/';
const VERIFIER_DEV = 'packages/verifier/dev/';

/**
 * The server's layer rules (docs/architecture.md). The leaves in lib/ import nothing of the server but each other.
 * Adapters depend on the port only, and the port on no adapter, no storage and nothing of the engine (a port names
 * what a network does, not where the programme keeps it). What an adapter needs from the engine or the worker, the
 * composition roots (composition/, called from main.ts) hand it, and no part of the product reaches up into them.
 * Tests are not held to it: they assemble the whole server around the part they test.
 */
const RULES: { from: string; mayNot?: string[]; mayOnly?: string[] }[] = [
  { from: 'lib/', mayOnly: ['lib/'] },
  { from: 'integrations/', mayNot: ['modules/', 'jobs/', 'composition/'] },
  { from: 'social/', mayNot: ['integrations/', 'db/', 'modules/', 'jobs/', 'composition/'] },
  ...['modules/', 'jobs/', 'db/', 'http/', 'security/', 'config/', 'operator/', 'doctor/'].map((from) => ({
    from,
    mayNot: ['composition/'],
  })),
];

/** Every import that breaks a layer rule, as `importer → imported` (server-relative paths). */
function layerCrossings(graph: ImportGraph): string[] {
  const inServer = (file: string) => (file.startsWith(SERVER) ? file.slice(SERVER.length) : undefined);
  return [...graph].flatMap(([file, targets]) => {
    const from = inServer(file);
    if (from === undefined || /\.test\.tsx?$/.test(from)) return [];
    const rule = RULES.find((r) => from.startsWith(r.from));
    if (!rule) return [];
    const breaks = (to: string) =>
      (rule.mayNot ?? []).some((layer) => to.startsWith(layer)) ||
      (rule.mayOnly !== undefined && !rule.mayOnly.some((layer) => to.startsWith(layer)));
    return targets
      .map(inServer)
      .filter((to) => to !== undefined && breaks(to))
      .map((to) => `${from} → ${to}`);
  });
}

/**
 * The development tools (apps/server/dev/: the Bluesky demo, on a dev dependency; packages/verifier/dev/: the
 * tamper proxy) stand outside the product: nothing outside each of them imports it, tests aside.
 */
function devToolCrossings(graph: ImportGraph): string[] {
  const toolOf = (file: string) => [DEV, VERIFIER_DEV].find((dir) => file.startsWith(dir));
  return [...graph].flatMap(([file, targets]) => {
    if (/\.test\.tsx?$/.test(file)) return [];
    return targets
      .filter((to) => toolOf(to) !== undefined && toolOf(to) !== toolOf(file))
      .map((to) => `${file} → ${to}`);
  });
}

/** The files at the root of the server's sources: the one entry, main.ts, and this test; the rest in folders. */
function rootFiles(graph: ImportGraph): string[] {
  return [...graph.keys()].filter(
    (file) => file.startsWith(SERVER) && !file.slice(SERVER.length).includes('/'),
  );
}

const VERIFIER = 'packages/verifier/';

/**
 * The verifier is a tool for outsiders (DESIGN §9): its sources import each other and the contract's ledger entry,
 * nothing of the server, the web or the rest of the contract. Its tests may cross (they use the local network's
 * helpers and compare with the server's scoring).
 */
function verifierCrossings(graph: ImportGraph): string[] {
  return [...graph].flatMap(([file, targets]) => {
    if (!file.startsWith(VERIFIER) || /\.test\.tsx?$/.test(file) || file.includes('/test/')) return [];
    return targets
      .filter((to) => !to.startsWith(VERIFIER) && to !== 'packages/contract/src/ledger.ts')
      .map((to) => `${file} → ${to}`);
  });
}

describe('the import graph', () => {
  let graph: ImportGraph;
  // Reading ~700 files with the compiler's resolution takes seconds, more on a busy machine.
  beforeAll(() => {
    graph = importGraph();
  }, 120_000);

  it('reads every workspace, tests and e2e support included', () => {
    for (const file of [
      'apps/server/src/composition/app.ts',
      'apps/web/src/main.tsx',
      'packages/contract/src/index.ts',
      'e2e/support/server.ts',
      'apps/server/src/architecture.test.ts',
    ])
      expect(graph.has(file), file).toBe(true);
    // A workspace package is followed to its sources.
    expect(graph.get('apps/server/src/composition/app.ts')).toContain('apps/server/src/config/config.ts');
    expect(graph.get('apps/server/src/modules/admin/admin-section-options.ts')).toContain(
      'apps/server/src/social/social-network.ts',
    );
  });

  it('has no import circle anywhere in the tree', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('keeps the leaves on each other, the adapters on the port, the port off the adapters and storage, and the product off the composition roots', () => {
    expect(graph.get('apps/server/src/main.ts')).toContain('apps/server/src/composition/serve.ts');
    expect(graph.get('apps/server/src/composition/serve.ts')).toContain('apps/server/src/composition/app.ts');
    expect(graph.get('apps/server/src/lib/errors.ts')).toContain('packages/contract/src/index.ts');
    expect(layerCrossings(graph)).toEqual([]);
  });

  it('keeps the development tools out of the product', () => {
    expect(graph.get('apps/server/dev/demo-bluesky/demo-bluesky.ts')).toContain(
      'apps/server/dev/demo-bluesky/demo-world.ts',
    );
    expect(graph.get(`${VERIFIER_DEV}tamper-proxy.ts`)).toContain(`${VERIFIER_DEV}ledger-tamper.ts`);
    expect(devToolCrossings(graph)).toEqual([]);
  });

  it('keeps only the entry at the root of the server sources', () => {
    expect(rootFiles(graph).sort()).toEqual([
      'apps/server/src/architecture.test.ts',
      'apps/server/src/main.ts',
    ]);
  });

  it("keeps the verifier's sources on the contract's ledger entry, off the server", () => {
    expect(graph.get('packages/verifier/src/verify.ts')).toContain('packages/verifier/src/ledger-check.ts');
    expect(graph.get('packages/verifier/src/ledger-check.ts')).toContain('packages/contract/src/ledger.ts');
    expect(verifierCrossings(graph)).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('find a circle, however long, and a file importing itself', () => {
    const graph: ImportGraph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
    ]);
    expect(importCircles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
  });

  it('find an adapter reaching into the engine or the worker, and the port reaching into an adapter or storage', () => {
    const graph: ImportGraph = new Map([
      [
        `${SERVER}integrations/x/feed.ts`,
        [`${SERVER}modules/mana/totals.repository.ts`, `${SERVER}lib/clock.ts`],
      ],
      [`${SERVER}integrations/x/feed.test.ts`, [`${SERVER}modules/mana/totals.repository.ts`]],
      [
        `${SERVER}integrations/bluesky/stream.ts`,
        [`${SERVER}jobs/job.ts`, `${SERVER}social/social-network.ts`],
      ],
      [`${SERVER}social/rules.ts`, [`${SERVER}integrations/x/x-ids.ts`]],
      [`${SERVER}social/usage.ts`, [`${SERVER}db/schema.ts`, `${SERVER}lib/clock.ts`]],
      [
        `${SERVER}composition/app.ts`,
        [`${SERVER}integrations/x/feed.ts`, `${SERVER}modules/mana/totals.repository.ts`],
      ],
    ]);
    expect(layerCrossings(graph)).toEqual([
      'integrations/x/feed.ts → modules/mana/totals.repository.ts',
      'integrations/bluesky/stream.ts → jobs/job.ts',
      'social/rules.ts → integrations/x/x-ids.ts',
      'social/usage.ts → db/schema.ts',
    ]);
  });

  it('find a leaf importing anything of the server but a leaf, and the product reaching up into a composition root', () => {
    const graph: ImportGraph = new Map([
      [`${SERVER}lib/clock.ts`, [`${SERVER}lib/time.ts`, 'packages/contract/src/index.ts']],
      [`${SERVER}lib/logger.ts`, [`${SERVER}config/config.ts`, `${SERVER}lib/time.ts`]],
      [`${SERVER}lib/job-types.ts`, [`${SERVER}jobs/job.ts`]],
      [`${SERVER}lib/logger.test.ts`, [`${SERVER}test/test-app.ts`]],
      [`${SERVER}modules/mana/totals.ts`, [`${SERVER}composition/worker-runtime.ts`]],
      [`${SERVER}integrations/x/feed.ts`, [`${SERVER}composition/app-network.ts`]],
      [`${SERVER}main.ts`, [`${SERVER}composition/app.ts`, `${SERVER}lib/clock.ts`]],
      [`${SERVER}http/web-app.test.ts`, [`${SERVER}composition/app.ts`]],
    ]);
    expect(layerCrossings(graph)).toEqual([
      'lib/logger.ts → config/config.ts',
      'lib/job-types.ts → jobs/job.ts',
      'modules/mana/totals.ts → composition/worker-runtime.ts',
      'integrations/x/feed.ts → composition/app-network.ts',
    ]);
  });

  it('find the product or a tool importing the development tools, but not the tools themselves or a test', () => {
    const graph: ImportGraph = new Map([
      [`${SERVER}main.ts`, [`${DEV}demo-bluesky/demo-world.ts`]],
      [`${SERVER}test/bluesky-world.ts`, [`${DEV}demo-bluesky/demo-world.ts`]],
      ['bench/lib/demo.ts', [`${DEV}demo-bluesky/demo-bluesky.ts`]],
      [
        `${DEV}demo-bluesky/demo-bluesky.ts`,
        [`${DEV}demo-bluesky/demo-world.ts`, `${SERVER}config/config.ts`],
      ],
      [`${SERVER}modules/mana/demo.test.ts`, [`${DEV}demo-bluesky/demo-world.ts`]],
      [`${VERIFIER}src/verify.ts`, [`${VERIFIER_DEV}ledger-tamper.ts`]],
      [`${VERIFIER_DEV}tamper-proxy.ts`, [`${VERIFIER_DEV}ledger-tamper.ts`, `${VERIFIER}src/verify.ts`]],
      [`${VERIFIER_DEV}ledger-tamper.ts`, [`${DEV}demo-bluesky/demo-world.ts`]],
      [`${VERIFIER_DEV}ledger-tamper.test.ts`, [`${VERIFIER_DEV}tamper-proxy.ts`]],
    ]);
    expect(devToolCrossings(graph)).toEqual([
      `${SERVER}main.ts → ${DEV}demo-bluesky/demo-world.ts`,
      `${SERVER}test/bluesky-world.ts → ${DEV}demo-bluesky/demo-world.ts`,
      `bench/lib/demo.ts → ${DEV}demo-bluesky/demo-bluesky.ts`,
      `${VERIFIER}src/verify.ts → ${VERIFIER_DEV}ledger-tamper.ts`,
      `${VERIFIER_DEV}ledger-tamper.ts → ${DEV}demo-bluesky/demo-world.ts`,
    ]);
  });

  it('find a file at the root of the server sources beside main.ts', () => {
    const graph: ImportGraph = new Map([
      [`${SERVER}main.ts`, []],
      [`${SERVER}clock.ts`, []],
      [`${SERVER}lib/time.ts`, []],
      [`${DEV}demo-bluesky/demo-world.ts`, []],
    ]);
    expect(rootFiles(graph)).toEqual([`${SERVER}main.ts`, `${SERVER}clock.ts`]);
  });

  it('find the verifier importing the server or the rest of the contract, but not its tests doing so', () => {
    const graph: ImportGraph = new Map([
      [`${VERIFIER}src/scoring.ts`, [`${SERVER}modules/mana/scoring.ts`]],
      [`${VERIFIER}src/report.ts`, ['packages/contract/src/index.ts', `${VERIFIER}src/findings.ts`]],
      [`${VERIFIER}src/ledger-check.ts`, ['packages/contract/src/ledger.ts']],
      [`${VERIFIER}src/scoring.test.ts`, [`${SERVER}modules/mana/scoring.ts`]],
      [`${VERIFIER}src/test/world.ts`, [`${SERVER}test/atproto-network.ts`]],
    ]);
    expect(verifierCrossings(graph)).toEqual([
      `${VERIFIER}src/scoring.ts → ${SERVER}modules/mana/scoring.ts`,
      `${VERIFIER}src/report.ts → packages/contract/src/index.ts`,
    ]);
  });
});
