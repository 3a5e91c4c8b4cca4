import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { childProcessEnv } from '../config/child-env';
import { paths } from '../config/config';
import { openDatabase } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { OwnerRecord } from '../db/owner-lock';
import { upsertAuthors } from '../modules/mana/authors.repository';
import { upsertPosts } from '../modules/mana/posts.repository';
import { recomputeTotalsWithRules } from '../modules/mana/rescore.service';
import { freePort } from './free-port';

const run = promisify(execFile);
export const serverDir = path.join(paths.repoRoot, 'apps/server');
/**
 * What the tsx command runs (its child: this node with tsx's loader), started directly: one node process per
 * command instead of two, which the operator-command tests start dozens of.
 */
export const tsxNodeArgs = [
  '--require',
  path.join(paths.repoRoot, 'node_modules/tsx/dist/preflight.cjs'),
  '--import',
  pathToFileURL(path.join(paths.repoRoot, 'node_modules/tsx/dist/loader.mjs')).href,
];

export type CliResult = { code: number; stdout: string; stderr: string };

/** The environment of an operator on the embedded database in `dataDir` (or on `databaseUrl`). */
export function operatorEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return childProcessEnv({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    INIT_CWD: dataDir,
    ...extra,
  });
}

/** Runs `src/<script>` through tsx, as its npm script does, and reports exit code and output. */
export async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...tsxNodeArgs, script, ...args], {
      cwd: serverDir,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export type OwnerProcess = {
  /** The node process that holds the lock (the spawned process itself: tsx's loader, no tsx command). */
  pid: number;
  origin: string;
  child: ChildProcess;
  exited: Promise<number | null>;
};

/** `npm start` on the embedded database in `dataDir`: resolves once it serves (on a free port). */
export async function startOwner(dataDir: string): Promise<OwnerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [...tsxNodeArgs, 'src/main.ts'], {
    cwd: serverDir,
    env: operatorEnv(dataDir, { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`owner did not start:\n${output}`)), 150_000);
    const check = setInterval(() => {
      if (!output.includes('Manaboard is serving')) return;
      clearInterval(check);
      clearTimeout(timer);
      resolve();
    }, 100);
    void exited.then((code) => {
      clearInterval(check);
      clearTimeout(timer);
      reject(new Error(`owner exited with ${code}:\n${output}`));
    });
  });
  const record = JSON.parse(await fs.readFile(path.join(dataDir, 'owner.lock'), 'utf8')) as OwnerRecord;
  return { pid: record.pid, origin: `http://127.0.0.1:${port}`, child, exited };
}

/**
 * A PGlite database in `dataDir` with the given authors (handle → likes on one programme post each, an hour old)
 * and their totals: what the operator-command tests act on.
 */
export async function seedOperatorData(
  dataDir: string,
  authors: { id: string; handle: string; postId: string; likes: number }[],
): Promise<void> {
  const at = new Date(Date.now() - 3_600_000);
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await migrateToLatest(database.db);
    await upsertAuthors(
      database.db,
      authors.map((a) => ({
        id: a.id,
        handle: a.handle,
        displayName: a.handle,
        avatarUrl: null,
        firstTrackedAt: at,
      })),
      at,
    );
    await upsertPosts(
      database.db,
      authors.map((a) => ({
        id: a.postId,
        authorId: a.id,
        text: '#ManaBoard',
        createdAt: at,
        kind: 'original' as const,
        likes: a.likes,
        replies: 0,
        reposts: 0,
        quotes: 0,
      })),
      at,
    );
    await recomputeTotalsWithRules(database.db, at);
  } finally {
    await database.close();
  }
}
