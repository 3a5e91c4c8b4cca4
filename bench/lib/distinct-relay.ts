// Starts the distinct-traffic relay (distinct-relay-child.ts) in a process of its own, and the plain reader
// (plain-reader-child.ts), the yardstick that reads the same relay and only splits each frame, in another.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { RelayEvent, RelayOptions } from './distinct-relay-child';
import { repoRoot } from './spawn-server';

export type DistinctRelay = {
  /** ws:// for BLUESKY_RELAY_URL. */
  url: string;
  /** http:// of the same server: the AppView, handle resolver and PLC directory the worker reads. */
  httpUrl: string;
  relayStart: number;
  pid: number;
  close: () => Promise<void>;
  /** The relay process (the faults bench kills it and drops its connections). */
  child: ChildProcess;
};

function forkChild(file: string, env: Record<string, string>): ChildProcess {
  return fork(path.join(repoRoot, 'bench/lib', file), [], {
    execPath: process.execPath,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

const closer = (child: ChildProcess) => async () => {
  if (child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.disconnect();
  await gone;
};

export async function startDistinctRelay(
  options: RelayOptions,
  /** Each connection, end of the stream and frame sent out of order (the faults bench). */
  onEvent?: (event: RelayEvent) => void,
): Promise<DistinctRelay> {
  const child = forkChild('distinct-relay-child.ts', { BENCH_DISTINCT_RELAY: JSON.stringify(options) });
  const ready = await new Promise<{ url: string; httpUrl: string; relayStart: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; httpUrl: string; relayStart: number }));
    child.once('exit', (code) => reject(new Error(`the distinct relay exited with ${code}`)));
  });
  if (onEvent) child.on('message', (m) => onEvent(m as RelayEvent));
  return { ...ready, pid: child.pid ?? 0, close: closer(child), child };
}

export type PlainReading = { frames: number; seconds: number; cpuSeconds: number };

/** The plain reader, in its own process: reads `frames` frames from the relay's first and splits each. */
export async function plainRead(url: string, frames: number): Promise<PlainReading> {
  const child = forkChild('plain-reader-child.ts', { BENCH_PLAIN_READER: JSON.stringify({ url, frames }) });
  try {
    return await new Promise<PlainReading>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the plain reader took over 10 minutes')), 600_000);
      child.once('message', (m) => {
        clearTimeout(timer);
        resolve(m as PlainReading);
      });
      child.once('exit', (code) => reject(new Error(`the plain reader exited with ${code}`)));
    });
  } finally {
    await closer(child)();
  }
}
