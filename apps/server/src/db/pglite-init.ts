import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { markPhase } from '../lib/start-phases';

const run = promisify(execFile);

/**
 * The fresh data directory the build made (scripts/build.mjs writes it beside the server bundle): an initdb'd
 * cluster with every migration applied, closed cleanly, so a first start copies its files (~0.1 s) instead of
 * running initdb (~2.5 s) and the migrations (~1 s). Absent when the server runs from its TypeScript sources
 * (tests, `npm run dev`): initdb then, and the migrations.
 */
export const PGLITE_TEMPLATE = 'pglite-template';

/**
 * Creates a fresh PGlite data directory: a copy of the build's template when there is one, else initdb in a
 * short-lived child process (in this process initdb would leave its WebAssembly instance's memory behind for good:
 * PGlite keeps it reachable; measured: a fresh open held ~600 MB resident, a reopen of the same directory ~300
 * MB). A directory that holds a cluster already is left alone, so this costs nothing after the first start. The
 * copy goes to a sibling directory first and is renamed into place, so a start that dies midway leaves no half
 * cluster that a later start would take for a whole one.
 */
export async function initPgliteDataDir(
  dataDir: string,
  startParams?: string[],
  template: string | null = builtTemplate(),
): Promise<void> {
  if (await exists(path.join(dataDir, 'PG_VERSION'))) return;
  if (template !== null && (await exists(path.join(template, 'PG_VERSION')))) {
    const staging = `${dataDir}.copy-${process.pid}`;
    await fs.rm(staging, { recursive: true, force: true });
    await copyCluster(template, staging);
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.rename(staging, dataDir);
    markPhase('data directory copied');
    return;
  }
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const script = [
    `const { PGlite } = await import(${JSON.stringify(pglite)});`,
    `const db = await PGlite.create(JSON.parse(process.argv[1]));`,
    `await db.close();`,
  ].join('\n');
  const options = { dataDir, ...(startParams ? { startParams } : {}) };
  await run(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(options)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  markPhase('data directory made (initdb)');
}

/** Files copied at once: the copies are the thread pool's work, and a first start waits for the last one. */
const COPIES_AT_ONCE = 8;
/** A WAL segment (pg_wal/<24 hex digits>): 16 MB preallocated, of which a fresh cluster has written about half. */
const WAL_SEGMENT = /^pg_wal[/\\][0-9A-F]{24}$/;

/**
 * Copies a cluster's files (issue 33: ~40% sooner than fs.cp, which copies one file after the other): several at
 * once, and each WAL segment as its written part followed by a hole up to its full length, which reads back as the
 * zeros the template holds there, without writing ~8 MB of them.
 */
async function copyCluster(from: string, to: string): Promise<void> {
  const files: string[] = [];
  await fs.mkdir(to, { recursive: true });
  for (const entry of await fs.readdir(from, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(from, path.join(entry.parentPath, entry.name));
    if (entry.isDirectory()) await fs.mkdir(path.join(to, relative), { recursive: true });
    else files.push(relative);
  }
  let next = 0;
  const copyNext = async (): Promise<void> => {
    for (let file = files[next++]; file !== undefined; file = files[next++]) {
      const source = path.join(from, file);
      const target = path.join(to, file);
      if (WAL_SEGMENT.test(file)) await copyWrittenPart(source, target);
      else await fs.copyFile(source, target);
    }
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, copyNext));
}

const ZEROS = Buffer.alloc(64 * 1024);

async function copyWrittenPart(source: string, target: string): Promise<void> {
  const bytes = await fs.readFile(source);
  let end = bytes.length;
  for (let start = Math.max(0, end - ZEROS.length); end > 0; start = Math.max(0, end - ZEROS.length)) {
    if (!bytes.subarray(start, end).equals(ZEROS.subarray(0, end - start))) break;
    end = start;
  }
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  const file = await fs.open(target, 'w');
  try {
    await file.write(bytes, 0, end, 0);
    await file.truncate(bytes.length);
  } finally {
    await file.close();
  }
}

/** The template beside this module when it runs from the build (apps/server/dist), else null. */
function builtTemplate(): string | null {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.js') ? path.join(path.dirname(here), PGLITE_TEMPLATE) : null;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
