import { createHook } from 'node:async_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { pinTickShape } from './tick-shape';

/** The next nextTick entry Node makes, caught as pinTickShape catches its own. */
function nextTickEntry(): object | undefined {
  let entry: object | undefined;
  const hook = createHook({
    init(_id, type, _trigger, resource: object) {
      if (type === 'TickObject') entry ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
  return entry;
}

describe('pinTickShape', () => {
  it('holds a nextTick entry for good, and after full collections new entries still have its shape', async () => {
    // V8's own view of shapes (%HaveSameMap) and its gc extension, both enabled for code compiled from here on.
    v8.setFlagsFromString('--allow-natives-syntax');
    v8.setFlagsFromString('--expose-gc');
    const haveSameShape = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
      a: object,
      b: object,
    ) => boolean;
    const gc = vm.runInNewContext('gc') as (options: object) => void;

    // Only a weak reference here: what keeps the entry alive through the collections is pinTickShape.
    const pinned = new WeakRef(pinTickShape() ?? {});
    expect(Object.keys(pinned.deref() ?? {})).toEqual(['callback', 'args']);
    for (const options of [
      { type: 'major', execution: 'sync' },
      { type: 'major', execution: 'sync', flavor: 'last-resort' },
    ]) {
      // A weak target is kept to the end of the job that read it: collect in a later one.
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc(options);
      const entry = pinned.deref();
      expect(entry).toBeDefined();
      expect(pinTickShape()).toBe(entry);
      expect(haveSameShape(entry ?? {}, nextTickEntry() ?? [])).toBe(true);
    }
  });
});
