import type { RunningServer } from './server';

/**
 * Waits until the demo world's history replay is over (the server logs it at level info), so the leaderboard
 * stops moving under a test's feet. Start the server with `LOG_LEVEL: 'info'` to use it.
 */
export async function demoCaughtUp(server: RunningServer, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes('demo: caught up')) {
    if (Date.now() > deadline) throw new Error(`the demo replay did not finish in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
