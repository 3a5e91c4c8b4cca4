import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { markPhase } from '../start-phases';

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
    await fs.cp(template, staging, { recursive: true });
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
