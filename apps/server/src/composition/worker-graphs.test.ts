import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { paths } from '../config/config';

const SRC = path.join(paths.repoRoot, 'apps/server/src');

/**
 * What the worker threads must not load (issue 33). Each thread compiles its own copy of every module it imports,
 * into a heap of its own: zod alone is ~2.7 MB of heap in a fresh isolate. The threads run the stream's reading and
 * filtering and PGlite; the schemas, the config, the HTTP server, the query builder, the logger and the Bluesky API
 * client are the serving thread's.
 */
const FORBIDDEN: { name: string; input: RegExp }[] = [
  { name: 'zod', input: /(^|\/)node_modules\/zod\// },
  { name: "the contract's sources", input: /^packages\/contract\// },
  { name: 'the config', input: /^apps\/server\/src\/config\// },
  { name: 'fastify', input: /(^|\/)node_modules\/(fastify|@fastify\/[^/]+)\// },
  { name: 'kysely', input: /(^|\/)node_modules\/kysely\// },
  { name: 'pino', input: /(^|\/)node_modules\/pino\// },
  { name: '@atproto/api', input: /(^|\/)node_modules\/@atproto\/api\// },
];

/**
 * The files a built entry's graph holds (repository-relative, node_modules/… for packages), as esbuild bundles it
 * for scripts/build.mjs: type-only imports are erased, so what is listed is what the thread compiles.
 */
async function graphOf(entry: string): Promise<string[]> {
  return Object.keys((await metafileOf([entry], false)).inputs);
}

/** esbuild's metafile of `entries` bundled as scripts/build.mjs bundles them, split into chunks or not. */
async function metafileOf(entries: string[], splitting: boolean): Promise<Metafile> {
  const result = await build({
    entryPoints: entries.map((entry) => path.join(SRC, entry)),
    absWorkingDir: paths.repoRoot,
    bundle: true,
    splitting,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    write: false,
    outdir: 'out',
    metafile: true,
    logLevel: 'silent',
    // As scripts/build.mjs's `unbundled`: loaded from node_modules at run time (PGlite is what its thread runs).
    external: ['@electric-sql/pglite', '@electric-sql/pglite/*', 'koffi'],
  });
  return result.metafile as Metafile;
}

/** The forbidden things a graph holds, each with the first file of it (an empty list: none). */
function forbiddenIn(graph: readonly string[]): string[] {
  return FORBIDDEN.flatMap(({ name, input }) => {
    const file = graph.find((f) => input.test(f));
    return file ? [`${name} (${file})`] : [];
  });
}

describe('the worker threads load only what they run', () => {
  const graphs = new Map<string, string[]>();
  beforeAll(async () => {
    for (const entry of ['composition/bluesky-stream-worker.ts', 'db/pglite-thread-entry.ts'])
      graphs.set(entry, await graphOf(entry));
  }, 30_000);

  it("the Bluesky stream's worker thread: no zod, contract, config, Fastify, Kysely, pino or @atproto/api", () => {
    const graph = graphs.get('composition/bluesky-stream-worker.ts') ?? [];
    // What it does run is there (the graph was read): the frame reader and the namer.
    expect(graph).toContain('apps/server/src/integrations/bluesky/bluesky-frames.ts');
    expect(graph).toContain('apps/server/src/modules/mana/stream-namer.ts');
    expect(forbiddenIn(graph)).toEqual([]);
  });

  it("the embedded database's thread: none of them either", () => {
    const graph = graphs.get('db/pglite-thread-entry.ts') ?? [];
    expect(graph).toContain('apps/server/src/db/pglite-start-params.ts');
    expect(forbiddenIn(graph)).toEqual([]);
  });

  it('the check finds them where they are: the serving side imports them', async () => {
    // stream-events.ts's engine neighbour and memory-config.ts, which the threads once reached (issue 33).
    expect(forbiddenIn(await graphOf('modules/programme/programme.service.ts'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^zod /),
        expect.stringMatching(/^the contract's sources /),
        expect.stringMatching(/^the config /),
      ]),
    );
    expect(forbiddenIn(await graphOf('config/memory-config.ts'))).toEqual([
      expect.stringMatching(/^zod /),
      expect.stringMatching(/^the config /),
    ]);
  });
});

/**
 * The files a Bluesky server's serving thread holds once the network's modules are imported: the entries' chunks and
 * the chunks they import statically, as scripts/build.mjs splits them (what `import()` loads later is left out, and
 * listed apart).
 */
async function servingGraphOf(entries: string[]): Promise<{ loaded: string[]; onDemand: string[] }> {
  const { outputs } = await metafileOf(entries, true);
  // Each module loaded with import() is an entry point of its own in the metafile: only the entries asked for start.
  const wanted = new Set(entries.map((entry) => `apps/server/src/${entry}`));
  const starts = Object.keys(outputs).filter((file) => wanted.has(outputs[file]?.entryPoint ?? ''));
  const loaded = new Set<string>();
  const lazy = new Set<string>();
  const visit = (file: string, into: Set<string>) => {
    if (loaded.has(file) || into.has(file) || !outputs[file]) return;
    into.add(file);
    for (const edge of outputs[file].imports) {
      if (edge.external) continue;
      visit(edge.path, edge.kind === 'dynamic-import' ? lazy : into);
    }
  };
  for (const start of starts) visit(start, loaded);
  const inputsOf = (files: Set<string>) => [...files].flatMap((f) => Object.keys(outputs[f]?.inputs ?? {}));
  return { loaded: inputsOf(loaded), onDemand: inputsOf(lazy) };
}

describe("a Bluesky server's serving thread", () => {
  it('reads the AppView without @atproto/api, which only signing in and writing load, as they run', async () => {
    // The API's adapter and the worker's jobs, which `npm start` runs in the same process.
    const graph = await servingGraphOf([
      'composition/app-network-bluesky.ts',
      'composition/worker-runtime-bluesky.ts',
    ]);
    const api = /(^|\/)node_modules\/@atproto\/api\//;
    expect(graph.loaded).toContain('apps/server/src/integrations/bluesky/bluesky-appview.ts');
    expect(graph.loaded.filter((f) => api.test(f))).toEqual([]);
    // The gap fill and the ledger's publisher still reach it, through import().
    expect(graph.onDemand.some((f) => api.test(f))).toBe(true);
  }, 30_000);
});
