// `npm run build` (also run by `npm install` and, when needed, by `npm start`): builds the web app (Vite) and the
// server (esbuild) unless their sources are unchanged since the current build. `node scripts/build.mjs web` or
// `server` builds one of them. See build-lib.mjs for how a build is switched in.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentBuild, ensureBuild, hashSources, isBuilt } from './build-lib.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDir = path.join(repoRoot, 'apps/web');
export const serverDir = path.join(repoRoot, 'apps/server');
const self = ['scripts/build.mjs', 'scripts/build-lib.mjs', 'package-lock.json', 'tsconfig.base.json'];
const contract = ['packages/contract/src', 'packages/contract/package.json'];

/** The operator commands, built beside main.js as `<name>.js` (npm run db:migrate runs migrate.js, …). */
export const commands = [
  'migrate',
  'seed',
  'db-backup',
  'db-restore',
  'announcements',
  'x-usage',
  'mana-rebuild',
  'ledger',
  'mana',
  'doctor',
];

const targets = {
  web: {
    dir: webDir,
    inputs: () => {
      const env = fs.readdirSync(webDir).filter((name) => name.startsWith('.env'));
      return [
        ...self,
        ...contract,
        ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json', ...env].map(
          (file) => `apps/web/${file}`,
        ),
      ];
    },
    build: buildWeb,
  },
  server: {
    dir: serverDir,
    inputs: () => [
      ...self,
      ...contract,
      'packages/x-sim/src',
      'packages/x-sim/package.json',
      'apps/server/src',
      'apps/server/package.json',
    ],
    // The bundle holds the undici of the Node that builds it (`undiciMajor`, below), and the PGlite template is made
    // by that Node: a build by another Node (the machine's own, say, where `npm start` runs the pinned one) is another
    // build, not one to reuse.
    salt: (versions) => `node modules ${versions.modules}, undici ${versions.undici.split('.')[0]}`,
    build: buildServer,
  },
};

async function buildWeb(outDir) {
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  const result = spawnSync(
    process.execPath,
    [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: webDir, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
  carryOverAssets(outDir);
}

/**
 * Pages loaded from the previous build keep working after a switch: their lazy chunks (a modal, the console)
 * are fetched later under the old hashed names, so the new build also serves the previous build's own assets.
 * Only its own: what it carried over itself is dropped, so a build holds two generations at most.
 */
function carryOverAssets(outDir) {
  const assets = path.join(outDir, 'assets');
  const own = fs.existsSync(assets) ? fs.readdirSync(assets) : [];
  const previous = currentBuild(webDir);
  const previousDir = previous ? path.join(webDir, '.builds', previous) : undefined;
  if (previousDir && fs.existsSync(path.join(previousDir, '.own-assets.json'))) {
    const theirs = JSON.parse(fs.readFileSync(path.join(previousDir, '.own-assets.json'), 'utf8'));
    fs.mkdirSync(assets, { recursive: true });
    for (const name of theirs) {
      const from = path.join(previousDir, 'assets', name);
      if (!own.includes(name) && fs.existsSync(from)) fs.copyFileSync(from, path.join(assets, name));
    }
  }
  fs.writeFileSync(path.join(outDir, '.own-assets.json'), JSON.stringify(own));
}

/**
 * npm packages the server bundle leaves in node_modules: PGlite loads its WebAssembly and data files from beside
 * its own module, and koffi is a native module. Every other dependency is pure JavaScript and is bundled; each was
 * checked for what a bundle breaks (files read beside the module, native parts): pino's and thread-stream's worker
 * files serve transports the server does not use, and ws's optional native helpers are looked for in a try.
 */
const unbundled = ['@electric-sql/pglite', 'koffi'];

/**
 * @atproto-labs/fetch-node (Bluesky's guarded fetch) imports undici 6, 7 and 8 and uses the one whose major is the
 * running Node's own fetch's (process.versions.undici); the other two were ~2 MB of the bundle, evaluated as a
 * Bluesky server starts. The build runs on the pinned Node that runs the server (package-lock.json, which the
 * build's hash covers), so only that major is bundled; the others become a module whose Agent says so if made. A
 * build by another Node (`node scripts/build.mjs` on the machine's own) is kept under another hash (the server
 * target's `salt`), so `npm start` on the pinned Node never runs it.
 * And of that major only its `Agent` (the dispatcher it hands Node's own fetch, with a DNS lookup that refuses
 * addresses that are not unicast) is bundled, not undici's index, which also evaluates its fetch, WebSocket, cache
 * and mocks: 6.0 MB of heap in a fresh process, the Agent alone 2.4 MB (issue 33). An import of anything else
 * from it fails the build.
 */
const undiciMajor = Number(process.versions.undici.split('.')[0]);

/**
 * A bundled package's JavaScript with its changes made (`patches`, below) and every character past ASCII written
 * as its `\\u` escape. esbuild escapes them in strings, templates and names itself (its ASCII charset) but leaves a
 * regular expression's as they are, and Node keeps a source that is not all ASCII as two bytes a character: one en
 * dash in @atproto/api's mute words doubled the heap that its 1.8 MB chunk's source takes. An escape means the same
 * character in a regular expression (a surrogate pair's two escapes too), a string or a name, and nothing in a
 * comment; only the columns of that line in the source map move.
 */
function asciiSource(file) {
  const patched = patchedSource(file);
  const text = patched ?? fs.readFileSync(file, 'utf8');
  if (!/[^\0-\x7f]/.test(text))
    return patched === undefined ? undefined : { contents: patched, loader: 'js' };
  return {
    // An odd run of backslashes before it escaped the character itself (`\\–` is `–`): its escape replaces both.
    contents: text.replace(/(\\*)([^\0-\x7f])/g, (_, slashes, c) => {
      const kept = slashes.length % 2 === 1 ? slashes.slice(1) : slashes;
      return `${kept}\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    }),
    loader: 'js',
  };
}
const unusedUndici = /^undici_v(\d+)$/;

/**
 * Where npm installed one version of a package more than once (it nests a copy under each dependent when the root
 * holds another major), the bundle keeps one (issue 33). The @atproto packages each pull zod 3.25.76 beside the
 * root's zod 4, which put ten copies of the same zod into the server's chunks, up to seven of them evaluated by a
 * Bluesky server's serving thread, each with its own classes and schemas; ajv 8.20.0 came three times (Fastify's
 * compiler, its serializer, ajv-formats). Read from package-lock.json (which the build's hash covers): each such
 * copy's directory → the one kept, a copy a production install has (not `dev`) first, then the shortest path, then
 * the first in order, so every build keeps the same one.
 */
export function sameVersionCopies(root) {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const copiesOf = new Map();
  for (const [dir, entry] of Object.entries(lock.packages ?? {})) {
    const name = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(dir)?.[1];
    if (!name || entry.link || !entry.version) continue;
    // An optional package for another platform is in the lock, not on disk.
    if (!fs.existsSync(path.join(root, dir, 'package.json'))) continue;
    const key = `${name}@${entry.version}`;
    copiesOf.set(key, [...(copiesOf.get(key) ?? []), { dir, dev: entry.dev === true }]);
  }
  const kept = new Map();
  for (const copies of copiesOf.values()) {
    if (copies.length < 2) continue;
    const [first] = [...copies].sort(
      (a, b) => Number(a.dev) - Number(b.dev) || a.dir.length - b.dir.length || (a.dir < b.dir ? -1 : 1),
    );
    for (const { dir } of copies)
      if (dir !== first.dir) kept.set(path.join(root, dir), path.join(root, first.dir));
  }
  return kept;
}

/** The package directory a resolved file is in (the innermost node_modules/<name> or node_modules/@scope/<name>). */
const packageDirOf = (file) => /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(file)?.[1];

/** esbuild: a package imported from another copy of the same version resolves into the copy kept. */
function oneCopyPerVersion(copies) {
  const again = Symbol('resolved once');
  return {
    name: 'one-copy-per-version',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData === again || copies.size === 0) return undefined;
        const result = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: again,
        });
        // Not found (an optional require in a try, such as ws's bufferutil): esbuild says what it says without this.
        if (result.errors.length > 0) return undefined;
        const dir = result.namespace === 'file' && !result.external ? packageDirOf(result.path) : undefined;
        const kept = dir && copies.get(dir);
        return {
          path: kept ? kept + result.path.slice(dir.length) : result.path,
          namespace: result.namespace,
          external: result.external,
          sideEffects: result.sideEffects,
          suffix: result.suffix,
          pluginData: result.pluginData,
        };
      });
    },
  };
}

/**
 * Two packages that load a heavy built-in module on every server when only an option or a rare payload needs it,
 * changed in the bundle (issue 33, docs/benchmarks.md). Each change names the exact text it replaces, and the build
 * fails if the text is not there (a new version of the package), so no change is dropped without a word.
 *
 * - fastify's server requires `node:https` and `node:http2` as it loads, for its `https` and `http2` options, which
 *   the server does not use: they load on first use instead (a bare process held 7 MB more resident with http2).
 * - @fastify/compress asks of every answer whether it is a `fetch` Response or a web stream (`instanceof`), and the
 *   first read of the global `Response` loads undici (10 MB more resident and 1.9 MB more heap in a bare process).
 *   Both classes name themselves (`Symbol.toStringTag`), so only an object that says it is one is checked further.
 */
const patches = {
  'fastify/lib/server.js': [
    [
      "const https = require('node:https')\nconst http2 = require('node:http2')\n",
      'const onFirstUse = (load) => { let loaded; return new Proxy({}, { get: (_, key) => (loaded ??= load())[key] }) }\n' +
        "const https = onFirstUse(() => require('node:https'))\nconst http2 = onFirstUse(() => require('node:http2'))\n",
    ],
  ],
  '@fastify/compress/lib/utils.js': [
    [
      'return obj instanceof ReadableStream',
      "return Object.prototype.toString.call(obj) === '[object ReadableStream]' && obj instanceof ReadableStream",
    ],
    [
      'return obj instanceof Response',
      "return Object.prototype.toString.call(obj) === '[object Response]' && obj instanceof Response",
    ],
  ],
};

/**
 * prom-client as the server uses it: its index also loads the Pushgateway client (which requires `node:https`, and
 * with it tls), the cluster aggregator (`node:cluster`, and a message listener) and Summary, none of which the server
 * uses. The bundle imports the parts it names instead; a name the server's code imports that is not here fails the
 * build (esbuild: no matching export).
 */
const promClientParts = `
export const Registry = require('prom-client/lib/registry');
export const Counter = require('prom-client/lib/counter');
export const Gauge = require('prom-client/lib/gauge');
export const Histogram = require('prom-client/lib/histogram');
export const collectDefaultMetrics = require('prom-client/lib/defaultMetrics');
`;

/** The packages' files `patches` changed in this build (each must be, or the build fails: checkPatchesMade). */
const patched = new Set();

/** A bundled package's source with its changes (`patches`) made; undefined when it has none. */
function patchedSource(file) {
  const name = Object.keys(patches).find((key) =>
    file.split(path.sep).join('/').endsWith(`/node_modules/${key}`),
  );
  if (!name) return undefined;
  let text = fs.readFileSync(file, 'utf8');
  for (const [from, to] of patches[name]) {
    if (!text.includes(from))
      throw new Error(`scripts/build.mjs: ${name} no longer has ${JSON.stringify(from)}`);
    text = text.replace(from, () => to);
  }
  patched.add(name);
  return text;
}

/** Fails the build if a package's file named in `patches` was not bundled (moved or renamed in a new version). */
function checkPatchesMade() {
  const missed = Object.keys(patches).filter((name) => !patched.has(name));
  if (missed.length > 0)
    throw new Error(`scripts/build.mjs: not bundled, so not changed: ${missed.join(', ')}`);
}

/**
 * Node's built-in modules, as CommonJS (`require`) wherever the bundle imports one. An ES module's import of a
 * built-in goes through the module's ESM facade, which reads every export once, lazy getters included: importing
 * `node:http` that way loads undici for `http.WebSocket` (and with it crypto, tls, http2, assert, …: 75 modules);
 * `node:fs` loads readline and the REPL's history for `fs.promises`' streams, `node:util` streams and workers. A bare
 * process that imported `node:http` held 13 MB more resident and 2.3 MB more heap than one that required it (issue
 * 33, docs/benchmarks.md). Through `require` an export is read only where the code uses it.
 */
const builtins = new Set(module.builtinModules);
const builtinOf = (specifier) => {
  const name = specifier.startsWith('node:') ? specifier.slice(5) : specifier;
  return builtins.has(name) || specifier.startsWith('node:') ? `node:${name}` : undefined;
};

async function buildServer(outDir) {
  const { build } = await import('esbuild');
  const src = path.join(serverDir, 'src');
  const entryPoints = {
    main: path.join(src, 'main.ts'),
    ...Object.fromEntries(commands.map((name) => [name, path.join(src, 'cli', `${name}.ts`)])),
    'make-pglite-template': path.join(src, 'db', 'make-pglite-template.ts'),
    // The Bluesky stream's worker thread (issue 31), loaded by its file name beside the chunk that starts it
    // (integrations/bluesky/bluesky-stream-thread.ts): the directory is flat, so it sits beside every chunk.
    'bluesky-stream-worker': path.join(src, 'composition', 'bluesky-stream-worker.ts'),
    // The embedded database's own thread (db/pglite-thread.ts), loaded by its file name in the same way.
    'pglite-thread': path.join(src, 'db', 'pglite-thread-entry.ts'),
  };
  await build({
    entryPoints,
    // Flat: every file sits four levels below the repository root, as src/config/config.ts does, so the
    // repository root it derives from its own location (import.meta.url) is the same built or not.
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    // Code shared by main and the commands, and each module imported with import() (Bluesky's adapter, the pg and
    // ioredis drivers), goes into chunks beside them (chunk-<hash>.js, in the same flat directory): a lazily
    // imported module's npm imports then load with it, not at start (issue 23: a server on X never loads the
    // @atproto packages, ~90 MB resident).
    splitting: true,
    // Stack traces name src/…/file.ts and its line (the processes run with source maps enabled).
    sourcemap: true,
    // Line mapping needs no copy of the sources: the process would hold them in its heap for good.
    sourcesContent: false,
    // Whitespace and syntax minified (issue 33): V8 keeps every loaded script's source text in the heap for good
    // (lazy compiling needs it), ~10 MB of an idle demo's before. Identifiers are not renamed: logs and errors name
    // classes and functions (pino's `type`, avvio's plugins), and esbuild's keepNames would restore them with a
    // defineProperty per function as each module loads (15 % of a restart's CPU, docs/benchmarks.md).
    minifyWhitespace: true,
    minifySyntax: true,
    // The bundled packages' license comments go to <chunk>.LEGAL.txt beside each file instead of into it: they were
    // the only text that was not ASCII in the server's largest chunk, and Node keeps a source that is not all ASCII
    // as two bytes a character (4.3 MB of heap where 2.2 MB holds it).
    legalComments: 'external',
    logLevel: 'warning',
    // The npm packages are bundled too (issue 33): a start then reads and compiles a few files instead of ~600
    // modules resolved one by one in node_modules (~0.4 s of a restart). Kept out: what cannot be bundled.
    plugins: [
      oneCopyPerVersion(sameVersionCopies(repoRoot)),
      {
        name: 'unbundled-packages',
        setup(pluginBuild) {
          pluginBuild.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, (args) =>
            asciiSource(args.path),
          );
          pluginBuild.onResolve({ filter: unusedUndici }, (args) =>
            Number(unusedUndici.exec(args.path)?.[1]) === undiciMajor
              ? { path: args.path, namespace: 'undici-agent', pluginData: { resolveDir: args.resolveDir } }
              : { path: args.path, namespace: 'unused-undici' },
          );
          pluginBuild.onLoad({ filter: /.*/, namespace: 'undici-agent' }, (args) => ({
            contents: `import Agent from ${JSON.stringify(`${args.path}/lib/dispatcher/agent.js`)}; export { Agent };`,
            resolveDir: args.pluginData.resolveDir,
            loader: 'js',
          }));
          pluginBuild.onLoad({ filter: /.*/, namespace: 'unused-undici' }, (args) => ({
            contents: `export class Agent { constructor() { throw new Error(${JSON.stringify(
              `${args.path} is not bundled: this build is for Node with undici ${undiciMajor} (scripts/build.mjs)`,
            )}); } }`,
            loader: 'js',
          }));
          pluginBuild.onResolve({ filter: /^prom-client$/ }, (args) =>
            args.importer.includes(`${path.sep}node_modules${path.sep}`)
              ? undefined
              : { path: 'prom-client', namespace: 'prom-client-parts' },
          );
          pluginBuild.onLoad({ filter: /.*/, namespace: 'prom-client-parts' }, () => ({
            contents: promClientParts,
            loader: 'js',
            resolveDir: repoRoot,
          }));
          pluginBuild.onResolve({ filter: /^[a-z0-9_:/]+$/ }, (args) => {
            const builtin = builtinOf(args.path);
            return builtin && (args.kind === 'import-statement' || args.kind === 'dynamic-import')
              ? { path: builtin, namespace: 'builtin-as-require' }
              : undefined;
          });
          pluginBuild.onLoad({ filter: /.*/, namespace: 'builtin-as-require' }, (args) => ({
            contents: `module.exports = require(${JSON.stringify(args.path)});`,
            loader: 'js',
          }));
          pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
            unbundled.some((name) => args.path === name || args.path.startsWith(`${name}/`))
              ? { path: args.path, external: true }
              : undefined,
          );
        },
      },
    ],
    // CommonJS packages in an ES module bundle: esbuild's require() of a Node built-in needs a `require`, and
    // a few packages name their own file (ioredis, in its error stacks; pino, for transports we do not use).
    banner: {
      js: [
        "import { createRequire as __mbCreateRequire } from 'node:module';",
        "import { fileURLToPath as __mbFileURLToPath } from 'node:url';",
        'const require = __mbCreateRequire(import.meta.url);',
        'const __filename = __mbFileURLToPath(import.meta.url);',
        "const __dirname = __mbFileURLToPath(new URL('.', import.meta.url));",
      ].join(' '),
    },
  });
  checkPatchesMade();
  await trimSourceMaps(outDir);
  buildPgliteTemplate(outDir);
}

/**
 * Each chunk's source map keeps the server's own sources only (issue 33). A process with source maps enabled
 * (scripts/run.mjs) parses a loaded chunk's map as it loads it and keeps it for good, and the bundled packages'
 * mappings were nine tenths of them: 2.6 MB of an idle demo's heap. A position in a package's code is marked
 * unmapped (a segment with no source), so a stack frame there names the chunk and its column rather than the
 * nearest line of ours. The whole map stays beside it as `<chunk>.js.full.map`, for reading such a frame by hand.
 */
async function trimSourceMaps(outDir) {
  // Loaded here, as esbuild is: a start that finds its build current loads neither (run.mjs imports this file).
  const { decode, encode } = await import('@jridgewell/sourcemap-codec');
  // Not a package's, nor a module the build makes itself (`builtin-as-require:node:http`).
  const ownSource = (source) => !source.split('/').includes('node_modules') && !/^[a-z-]+:/.test(source);
  for (const file of fs.readdirSync(outDir).filter((name) => name.endsWith('.js.map'))) {
    const mapPath = path.join(outDir, file);
    const full = fs.readFileSync(mapPath, 'utf8');
    const map = JSON.parse(full);
    const sources = [];
    const sourceIndex = new Map();
    const names = [];
    const nameIndex = new Map();
    const indexOf = (index, list, table, value) => {
      if (!table.has(index)) table.set(index, list.push(value) - 1);
      return table.get(index);
    };
    const lines = decode(map.mappings).map((line) => {
      const kept = [];
      for (const segment of line) {
        if (segment.length === 1 || !ownSource(map.sources[segment[1]])) {
          // Unmapped: one such segment stands for the run of them.
          if (kept.length === 0 || kept.at(-1).length > 1) kept.push([segment[0]]);
          continue;
        }
        const ours = [segment[0], indexOf(segment[1], sources, sourceIndex, map.sources[segment[1]])];
        ours.push(segment[2], segment[3]);
        if (segment.length === 5) ours.push(indexOf(segment[4], names, nameIndex, map.names[segment[4]]));
        kept.push(ours);
      }
      return kept;
    });
    fs.writeFileSync(path.join(outDir, file.replace(/\.map$/, '.full.map')), full);
    fs.writeFileSync(mapPath, JSON.stringify({ ...map, sources, names, mappings: encode(lines) }));
  }
}

/**
 * A fresh PGlite data directory with every migration applied, made once per build beside the bundle
 * (`pglite-template/`, ~40 MB, by the bundle's own make-pglite-template.js): a first start copies it into DATA_DIR
 * (apps/server/src/db/pglite-init.ts) instead of running initdb (~2.5 s) or loading a dump of it in a child process
 * (~0.7 s, which compiled PGlite's WebAssembly a second time), and finds no migration due. The cluster is closed
 * cleanly here, so its files are what PostgreSQL itself reopens. The build's hash covers package-lock.json and the
 * migrations, so a new PGlite or a new migration makes a new template.
 */
function buildPgliteTemplate(outDir) {
  const result = spawnSync(
    process.execPath,
    [path.join(outDir, 'make-pglite-template.js'), path.join(outDir, 'pglite-template')],
    { stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`the PGlite template was not made (exit ${result.status})`);
}

/** The hash `name`'s build is kept under: its sources', and for the server, which Node (`versions`) builds it. */
export function buildHash(name, versions = process.versions) {
  const target = targets[name];
  return hashSources(repoRoot, target.inputs(), target.salt?.(versions) ?? '');
}

/** Builds what is out of date; returns the names of the targets it built. */
export async function buildIfNeeded(names, log = console.log) {
  const built = [];
  for (const name of names) {
    const target = targets[name];
    const hash = buildHash(name);
    if (isBuilt(target.dir, hash)) continue;
    const started = performance.now();
    log(`building ${name} (${hash})…`);
    await ensureBuild(target.dir, hash, target.build);
    log(`built ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    built.push(name);
  }
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const afterInstall = args.includes('--after-install');
  const names = args.filter((arg) => !arg.startsWith('--'));
  try {
    await buildIfNeeded(names.length > 0 ? names : ['web', 'server']);
  } catch (error) {
    if (!afterInstall) throw error;
    // An install never fails on a build: `npm start` builds (and says why it cannot) when it is needed.
    console.warn(`manaboard: the build after install failed; npm start will try again.\n${error}`);
  }
}
