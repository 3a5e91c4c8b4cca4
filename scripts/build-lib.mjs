// Build once (issue 23): each target (the web app, the server) is built into a directory named after the hash of
// its sources, `<app>/.builds/<hash>/`, and `<app>/dist` is a symlink to the current one. A build is written under
// a temporary name, renamed into place when complete, and the symlink replaced by rename(2), which is atomic:
// a process serving from `dist` sees the old build or the new one, never half of one. Sources unchanged (same
// hash) means nothing is built; a timestamp would rebuild after every checkout or copy.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Every file under `dir` (relative to `root`), skipping tests, test helpers and anything built or installed. */
function listFiles(root, dir, out) {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return;
  const stat = fs.statSync(full);
  if (stat.isFile()) {
    out.push(dir);
    return;
  }
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    const name = entry.name;
    if (name === 'node_modules' || name === 'dist' || name === '.builds' || name === 'test') continue;
    if (/\.test\.tsx?$/.test(name)) continue;
    const rel = path.join(dir, name);
    if (entry.isDirectory()) listFiles(root, rel, out);
    else if (entry.isFile()) out.push(rel);
  }
}

/**
 * The content hash of `inputs` (files or directories relative to `root`): names and bytes, in a fixed order, after
 * `salt` (what else the build's output depends on, such as the Node that builds it).
 */
export function hashSources(root, inputs, salt = '') {
  const files = [];
  for (const input of inputs) listFiles(root, input, files);
  files.sort();
  const hash = createHash('sha256');
  if (salt !== '') hash.update(`${salt}\0`);
  for (const file of files) {
    hash.update(file.split(path.sep).join('/'));
    hash.update('\0');
    hash.update(fs.readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** The hash `dist` points at, or undefined (no build yet, or a plain directory from an older checkout). */
export function currentBuild(appDir) {
  try {
    return path.basename(fs.readlinkSync(path.join(appDir, 'dist')));
  } catch {
    return undefined;
  }
}

const COMPLETE = '.complete';

export function isBuilt(appDir, hash) {
  return currentBuild(appDir) === hash && fs.existsSync(path.join(appDir, '.builds', hash, COMPLETE));
}

/**
 * Makes `<appDir>/dist` point at the build of `hash`, building it first with `build(outDir)` unless a complete
 * one exists. Concurrent builders of the same hash are harmless: the first rename wins, the others discard theirs.
 */
export async function ensureBuild(appDir, hash, build) {
  const builds = path.join(appDir, '.builds');
  const target = path.join(builds, hash);
  if (!fs.existsSync(path.join(target, COMPLETE))) {
    fs.mkdirSync(builds, { recursive: true });
    const temporary = path.join(builds, `${hash}.tmp-${process.pid}`);
    fs.rmSync(temporary, { recursive: true, force: true });
    await build(temporary);
    fs.writeFileSync(path.join(temporary, COMPLETE), `${new Date().toISOString()}\n`);
    if (fs.existsSync(target) && !fs.existsSync(path.join(target, COMPLETE))) {
      // Not a build: what a process still running on a pruned build wrote back into its directory (Node's compile
      // cache, run.mjs), or the rest of a build that stopped half way. Renaming onto it would fail as onto a
      // finished one, and `dist` would point at a directory without the build.
      fs.rmSync(target, { recursive: true, force: true });
    }
    try {
      fs.renameSync(temporary, target);
    } catch (error) {
      // Another process finished the same build first (a non-empty directory is never replaced).
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code)) throw error;
      fs.rmSync(temporary, { recursive: true, force: true });
    }
  }
  switchTo(appDir, hash);
  prune(builds, hash);
}

function switchTo(appDir, hash) {
  const dist = path.join(appDir, 'dist');
  const link = `${dist}.tmp-${process.pid}`;
  fs.rmSync(link, { force: true });
  fs.symlinkSync(path.join('.builds', hash), link);
  const existing = fs.lstatSync(dist, { throwIfNoEntry: false });
  if (existing && !existing.isSymbolicLink()) {
    // A `dist` directory from before builds were switched (vite build in place): moved aside once.
    fs.renameSync(dist, path.join(appDir, '.builds', `legacy-${Date.now()}`));
  }
  fs.renameSync(link, dist);
}

/** Keeps the current build and the two before it (a process started on one of them may still read it). */
function prune(builds, current) {
  const old = fs
    .readdirSync(builds)
    .filter((name) => name !== current && !name.includes('.tmp-'))
    .map((name) => ({ name, at: fs.statSync(path.join(builds, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at)
    .slice(2);
  for (const { name } of old) fs.rmSync(path.join(builds, name), { recursive: true, force: true });
}
