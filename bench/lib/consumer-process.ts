// The stream consumer in a process of its own (consumer-child.ts), so its resident memory is measured apart from the
// bench's (which holds the recording, tsx and every bench's imports).
import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './spawn-server';

export type Progress = { at: number; seen: number; cursorTime: number | null };

export async function startConsumerProcess(
  options: { relayUrl: string; fromSeq?: number },
  onProgress: (progress: Progress) => void,
) {
  const child = fork(path.join(repoRoot, 'bench/lib/consumer-child.ts'), [], {
    execPath: process.execPath,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_CONSUMER_OPTIONS: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('message', (m: { progress?: Progress }) => m.progress && onProgress(m.progress));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean }) => m.ready && resolve());
    child.once('exit', (code) => reject(new Error(`the consumer exited with ${code}`)));
  });
  return {
    /** Resident memory of the consumer's process, bytes (Linux /proc). */
    rss: async () => {
      const status = await fs.readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await gone;
    },
  };
}
