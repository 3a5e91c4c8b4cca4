// The replay server (apps/server/src/test/subscribe-repos-replay.ts) in a process of its own, as a relay is another
// machine: the consumer measured in the bench's process (or the app's) does not share its core with the server's
// re-encoding of every frame. On 2 cores: the consumer on one, the relay on the other.
import { fork } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './spawn-server';

export type ReplayProcess = {
  url: string;
  /** The recorded accounts' profiles and handles, as the AppView would answer them (replay-child.ts). */
  appviewUrl: string;
  /** Injects a like of the subject by `liker` as the next event; resolves with its seq and when it was produced. */
  injectLike: (like: {
    subjectUri: string;
    subjectCid: string;
    liker: string;
    rkey: string;
  }) => Promise<{ seq: number; producedAt: number }>;
  close: () => Promise<void>;
};

export async function startReplayProcess(options: {
  mix: 'public' | 'programme';
  rate: number;
  backlogSeconds?: number;
}): Promise<ReplayProcess> {
  const child = fork(path.join(repoRoot, 'bench/lib/replay-child.ts'), [], {
    execPath: process.execPath,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_REPLAY_OPTIONS: JSON.stringify({ backlogSeconds: 0, ...options }) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url, appviewUrl } = await new Promise<{ url: string; appviewUrl: string }>((resolve, reject) => {
    child.on('message', (m: { url?: string; appviewUrl?: string }) => {
      if (m.url && m.appviewUrl) resolve({ url: m.url, appviewUrl: m.appviewUrl });
    });
    child.once('exit', (code) => reject(new Error(`the replay server exited with ${code}`)));
  });
  return {
    url,
    appviewUrl,
    injectLike: (like) =>
      new Promise((resolve) => {
        const onMessage = (m: { injected?: { seq: number; producedAt: number } }) => {
          if (!m.injected) return;
          child.off('message', onMessage);
          resolve(m.injected);
        };
        child.on('message', onMessage);
        child.send({ inject: like });
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.disconnect();
      await gone;
    },
  };
}
