/**
 * The few functions of glibc's malloc the server tunes itself with (memory-trim.ts, malloc-threshold.ts). Node has no
 * binding for them, so they are called through koffi (a maintained C FFI whose prebuilt binary comes in its npm
 * package). Loaded once, on first use.
 */
export type Libc = {
  /** `malloc_trim(pad)`: 1 when memory was given back to the system. */
  mallocTrim: (pad: number) => number;
  /** `mallopt(param, value)`: 1 on success. */
  mallopt: (param: number, value: number) => number;
};

let loading: Promise<Libc | string> | undefined;

/** glibc's functions, or why they cannot be called here (not Linux, not glibc, koffi not installed). */
export function loadLibc(): Promise<Libc | string> {
  loading ??= load();
  return loading;
}

async function load(): Promise<Libc | string> {
  if (process.platform !== 'linux') return `not Linux (${process.platform})`;
  // Only glibc is libc.so.6 and has malloc_trim: on musl the load fails, and this says why.
  try {
    const koffi = (await import('koffi')).default;
    const libc = koffi.load('libc.so.6');
    return {
      mallocTrim: libc.func('int malloc_trim(size_t pad)') as (pad: number) => number,
      mallopt: libc.func('int mallopt(int param, int value)') as (param: number, value: number) => number,
    };
  } catch (error) {
    return `koffi is not available (${error instanceof Error ? error.message : String(error)})`;
  }
}
