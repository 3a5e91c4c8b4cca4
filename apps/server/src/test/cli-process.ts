import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { paths } from '../config/config';
import type { OwnerRecord } from '../db/owner-lock';
import { freePort } from './free-port';

const run = promisify(execFile);
export const serverDir = path.join(paths.repoRoot, 'apps/server');
const tsx = path.join(paths.repoRoot, 'node_modules/.bin/tsx');

export type CliResult = { code: number; stdout: string; stderr: string };

/** The environment of an operator on the embedded database in `dataDir` (or on `databaseUrl`). */
export function operatorEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    INIT_CWD: dataDir,
    ...extra,
  };
}

/** Runs `src/<script>` through tsx, as its npm script does, and reports exit code and output. */
export async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(tsx, [script, ...args], { cwd: serverDir, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

export type OwnerProcess = {
  /** The node process that holds the lock (tsx runs the server in a child of its own). */
  pid: number;
  origin: string;
  child: ChildProcess;
  exited: Promise<number | null>;
};

/** `npm start` on the embedded database in `dataDir`: resolves once it serves (on a free port). */
export async function startOwner(dataDir: string): Promise<OwnerProcess> {
  const port = await freePort();
  const child = spawn(tsx, ['src/main.ts'], {
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
