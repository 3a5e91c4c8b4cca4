import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

/** A thread that calls lowerThreadPriority(`nice`) and reports what it returned and its own nice value after. */
async function inThread(nice: number): Promise<{ lowered: boolean; after: number }> {
  const module = pathToFileURL(path.join(import.meta.dirname, 'thread-priority.ts')).href;
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     import(${JSON.stringify(module)}).then(({ lowerThreadPriority }) => {
       const lowered = lowerThreadPriority(${nice});
       parentPort.postMessage({ lowered, after: require('node:os').getPriority() });
     });`,
    { eval: true, execArgv: ['--import', 'tsx'] },
  );
  const [answer] = (await once(worker, 'message')) as [{ lowered: boolean; after: number }];
  await worker.terminate();
  return answer;
}

describe.runIf(process.platform === 'linux')('lowerThreadPriority', () => {
  it('lowers the calling thread alone, and never raises it', async () => {
    const own = os.getPriority();
    expect(await inThread(Math.min(own + 5, 19))).toEqual({
      lowered: own < 19,
      after: Math.min(own + 5, 19),
    });
    // This thread keeps its own.
    expect(os.getPriority()).toBe(own);
    // A value above the thread's own priority (a lower nice) is left alone. Only a privileged process (root, as in
    // CI, or CAP_SYS_NICE) could raise it; elsewhere setpriority refuses and this holds either way.
    expect(await inThread(own - 1)).toEqual({ lowered: false, after: own });
  });
});
