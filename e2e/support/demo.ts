import type { RunningServer } from './running-server';

/**
 * Waits until the demo world's history replay is over (the server logs it at level info), so the leaderboard
 * stops moving under a test's feet. Start the server with `LOG_LEVEL: 'info'` to use it.
 */
export async function demoCaughtUp(server: RunningServer, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes('demo: caught up')) {
    if (server.exited())
      throw new Error(`the server exited before the demo replay was over:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`the demo replay did not finish in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Waits until `GET path` (a leaderboard read) lists at least one author: the demo world's board starts empty and
 * fills once the replay's first totals run is over, which takes longer when the machine is busy. A test about the
 * first screen with rows must not load the page before that.
 */
export async function boardHasRows(server: RunningServer, path: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await fetch(`${server.origin}${path}`).catch(() => undefined);
    const body = response?.ok ? ((await response.json()) as { data?: { authors?: unknown[] } }) : undefined;
    if ((body?.data?.authors?.length ?? 0) > 0) return;
    if (Date.now() > deadline) throw new Error(`${path} listed no author in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
