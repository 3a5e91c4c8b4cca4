import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { FULL_COLLECTIONS, v8ShapeTools } from '../test/v8-shapes';
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
    const { haveSameShape, gc } = v8ShapeTools();

    // Only a weak reference here: what keeps the entry alive through the collections is pinTickShape.
    const pinned = new WeakRef(pinTickShape() ?? {});
    expect(Object.keys(pinned.deref() ?? {})).toEqual(['callback', 'args']);
    for (const options of FULL_COLLECTIONS) {
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
