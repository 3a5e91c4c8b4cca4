// `npm start`, `start:api`, `start:worker` and the operator commands: runs the built server (`apps/server/dist`,
// compiled JavaScript; no TypeScript compiled at run time), building it first if its sources changed.
// Usage: node scripts/run.mjs <main|migrate|seed|…> [arguments of that command]
// First: the server's V8 settings, given on the command line by `npm start` (runtime-env.mjs).
import './runtime-env.mjs';
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, commands, serverDir } from './build.mjs';

const [entry = 'main', ...rest] = process.argv.slice(2);
if (entry !== 'main' && !commands.includes(entry)) {
  console.error(`unknown command ${entry}: main or one of ${commands.join(', ')}`);
  process.exit(1);
}
// The web app is served by main without a role or with `api`; the worker and the commands need only the server.
const serves = entry === 'main' && (rest[0] === undefined || rest[0] === 'api');
// Build output goes to stderr: an operator command's stdout may be piped (a backup, a listing).
await buildIfNeeded(serves ? ['web', 'server'] : ['server'], (line) => console.error(line));
const { user, system } = process.cpuUsage();
performance.mark('start: build checked', { detail: { cpuMicros: user + system } });
// Stack traces in logs name the TypeScript sources and lines (esbuild writes the source maps). Only our bundle's
// map is loaded: the maps that npm packages ship (about 1,000 files) held ~10 MB of heap for good (issue 23's
// heap snapshot), and their frames keep naming the package's own .js file.
module.setSourceMapsSupport(true, { nodeModules: false });
// The command reads its own arguments from process.argv.slice(2), as when it is run by itself.
process.argv.splice(2, 1);
const file = fs.realpathSync(path.join(serverDir, 'dist', `${entry}.js`));
// V8's compiled code of the bundle (and of PGlite's JavaScript) is kept in the build's own directory (issue 33):
// a start after the first skips most compiling, and a new build starts a new cache. Best effort: a read-only
// build directory just runs without it (NODE_COMPILE_CACHE, when set, names another directory).
module.enableCompileCache({ directory: path.join(path.dirname(file), '.compile-cache') });
await import(pathToFileURL(file).href);
