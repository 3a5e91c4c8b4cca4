import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { childProcessEnv } from '../config/child-env';
import { tsxNodeArgs } from '../test/cli-process';

/**
 * V8's flags as a process sees them, in the serving thread and in a thread started after `code` ran: V8's version
 * tag for compiled code (`cachedDataVersionTag`) is a hash of V8's flags, among other things, and changes with each
 * value of a flag. Node has no reader of a V8 flag itself.
 */
async function flagTags(flags: string[], code: string): Promise<{ serving: number; thread: number }> {
  const module = pathToFileURL(path.join(import.meta.dirname, 'heap-growth.ts')).href;
  const tag = `process.getBuiltinModule('node:v8').cachedDataVersionTag()`;
  const script = `
    const heap = await import(${JSON.stringify(module)});
    ${code}
    const { Worker } = await import('node:worker_threads');
    const serving = ${tag};
    const worker = new Worker(\`process.getBuiltinModule('node:worker_threads').parentPort.postMessage(${tag});\`, {
      eval: true,
    });
    worker.once('message', (thread) => { console.log(JSON.stringify({ serving, thread })); process.exit(0); });`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...flags, ...tsxNodeArgs, '--input-type=module', '-e', script],
    { env: childProcessEnv({ NODE_OPTIONS: '' }) },
  );
  return JSON.parse(stdout) as { serving: number; thread: number };
}

describe("V8's memory saver mode (saveHeapMemory)", () => {
  it('is set for the process, its threads too, as if node had been started with the flag', async () => {
    const [saved, started, plain] = await Promise.all([
      flagTags([], 'heap.saveHeapMemory(true);'),
      flagTags(['--memory-saver-mode'], ''),
      flagTags([], ''),
    ]);
    expect(saved).toEqual({ serving: started.serving, thread: started.serving });
    expect(saved.serving).not.toBe(plain.serving);
  });

  it("is left to V8 when off: the flags are node's own", async () => {
    const [off, plain] = await Promise.all([flagTags([], 'heap.saveHeapMemory(false);'), flagTags([], '')]);
    expect(off).toEqual(plain);
  });
});
