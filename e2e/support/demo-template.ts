import fs from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the e2e project's global setup puts the replayed demo's data directory (demo-template.setup.ts). */
    demoTemplate: string;
  }
}

/** The file the global setup writes beside the template when it could not make it (its reason, for every test). */
export const failedMarker = (template: string): string => `${template}.failed`;

/**
 * The demo's data directory once its history replay is over, made once for the whole e2e run by the project's
 * global setup (demo-template.setup.ts) while the other projects' tests run: every browser file that needs a
 * settled demo copies it and starts caught up, instead of replaying the same history in its own server for
 * minutes of the machine's CPU. Waits until it is there.
 */
export async function replayedDemoDataDir(timeoutMs = 600_000): Promise<string> {
  const template = inject('demoTemplate');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fs.access(path.join(template, 'pglite', 'PG_VERSION'));
      return template;
    } catch {
      // Not moved into place yet.
    }
    const failure = await fs.readFile(failedMarker(template), 'utf8').catch(() => undefined);
    if (failure !== undefined) throw new Error(`the demo template could not be made:\n${failure}`);
    if (Date.now() > deadline)
      throw new Error(`the demo template was not ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
