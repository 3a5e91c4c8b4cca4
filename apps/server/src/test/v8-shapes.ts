import v8 from 'node:v8';
import vm from 'node:vm';

/** The full collections a quiet server meets: V8's own, and memory-trim.ts's last-resort one. */
export const FULL_COLLECTIONS = [
  { type: 'major', execution: 'sync' },
  { type: 'major', execution: 'sync', flavor: 'last-resort' },
] as const;

/**
 * V8's own view of shapes (`%HaveSameMap`) and its gc extension, both enabled for code compiled from here on: what
 * the tests of lib/tick-shape.ts and lib/request-shapes.ts check with.
 */
export function v8ShapeTools(): {
  haveSameShape: (a: object, b: object) => boolean;
  gc: (options: (typeof FULL_COLLECTIONS)[number]) => void;
} {
  v8.setFlagsFromString('--allow-natives-syntax');
  v8.setFlagsFromString('--expose-gc');
  return {
    haveSameShape: new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean,
    gc: vm.runInNewContext('gc') as (options: object) => void,
  };
}
