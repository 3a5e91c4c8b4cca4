// Kept apart from config/memory-config.ts, where the settings are parsed with zod: the database's own thread
// (pglite-thread-entry.ts) computes its start parameters from what it is sent, and a thread compiles its own copy of
// every module it imports (issue 33).

export type PgliteMemory = { sharedBuffers: string; maintenanceWorkMem: string; workMem: string };

/** PGlite's start parameters: its own defaults, then ours (a later `-c` wins). */
export function pgliteStartParams(defaults: readonly string[], memory: PgliteMemory): string[] {
  return [
    ...defaults,
    '-c',
    `shared_buffers=${memory.sharedBuffers}`,
    '-c',
    `maintenance_work_mem=${memory.maintenanceWorkMem}`,
    '-c',
    `work_mem=${memory.workMem}`,
  ];
}
