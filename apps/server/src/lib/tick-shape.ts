import { createHook } from 'node:async_hooks';

const noop = () => {};
let pinned: object | undefined;

/**
 * Keeps one of Node's nextTick queue entries alive for the life of the process (issue 23), so V8 never forgets
 * the shape of those entries. Node builds each entry as an object literal with computed keys, and V8 remembers
 * the shape it reaches only while some object has it. A full collection that happens to run while no entry is
 * queued (one of V8's own, or the server's settling in memory-trim.ts) forgets it, and from then on V8 builds
 * every entry on its slow path, for good: measured on a bare Fastify server, one such collection costs each
 * request 2.5 µs of CPU (~25 %), and a perf profile of our server under load showed that path in ~10 % of its
 * samples (docs/benchmarks.md, "The forced collection and Node's nextTick"). One entry held here keeps the shape.
 *
 * The entry is caught with an async hook, enabled only around one nextTick. Returns it (tests compare shapes).
 */
export function pinTickShape(): object | undefined {
  if (pinned) return pinned;
  const hook = createHook({
    init(_id, type, _trigger, resource: object) {
      if (type === 'TickObject') pinned ??= resource;
    },
  });
  hook.enable();
  process.nextTick(noop);
  hook.disable();
  return pinned;
}
