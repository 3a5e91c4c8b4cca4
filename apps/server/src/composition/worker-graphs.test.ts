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
  const result = await build({
    entryPoints: [path.join(SRC, entry)],
    absWorkingDir: paths.repoRoot,
    bundle: true,
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
  return Object.keys((result.metafile as Metafile).inputs);
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
