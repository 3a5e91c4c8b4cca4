import { spawn } from 'node:child_process';
import path from 'node:path';
import { childProcessEnv } from '../config/child-env';
import { paths } from '../config/config';

export type RunningProcess = {
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  /** Resolves with the exit code (or the signal's name) once the process and its group are gone. */
  exited: Promise<number | string>;
  /** Sends a signal to the whole process group (npm, its shell, tsx and the server's node). */
  signal: (name: NodeJS.Signals) => void;
  /** Resolves when `pattern` appears in the output; rejects after `timeoutMs` or when the process exits. */
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
};

/**
 * Runs an npm script from the repository root as a user would (`npm run <script>`), in its own process group
 * so a test can kill the server itself and not only npm. Output is collected for assertions and failures.
 */
export function runNpm(args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn('npm', ['run', '--silent', ...args], {
    cwd: paths.repoRoot,
    env: childProcessEnv({ PATH: npmPath(), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      for (const listener of listeners) listener();
      resolve(code ?? signal ?? 'unknown');
    }),
  );
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, name);
    } catch {
      // already gone
    }
  };
  const waitFor = (pattern: RegExp, timeoutMs = 60_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = text.match(pattern);
        if (match) return done(() => resolve(match));
        if (child.exitCode !== null || child.signalCode !== null) {
          done(() => reject(new Error(`process ended before ${pattern}:\n${text}`)));
        }
      };
      const timer = setTimeout(
        () => done(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${text}`))),
        timeoutMs,
      );
      const done = (settle: () => void) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  return { output: () => text, exited, signal, waitFor };
}

/** The repository's node_modules/.bin first, so npm and the scripts run on the pinned Node 24. */
function npmPath(): string {
  return [path.join(paths.repoRoot, 'node_modules/.bin'), childProcessEnv().PATH ?? ''].join(path.delimiter);
}
