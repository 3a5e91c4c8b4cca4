// Imported first by scripts/run.mjs for the server (`main`): settings of the process itself that keep a server
// small and quick (issue 23, docs/configuration.md "Memory"). They are read only when a process starts, so the
// process is replaced in place (process.execve: same pid, no second process) with them set, once.
//
// - V8's young generation at most 4 MB per semi-space (`--max-semi-space-size=4`), so a burst of load does not
//   grow the heap by tens of MB. In issue 23's interleaved benchmark (`npm run bench user`) the reads were within
//   the runs' noise either way: the cached leaderboard 0.50-0.55x bare with it, 0.45-0.47x uncapped or at 16 MB;
//   `/healthz` 0.60-0.76x with it, 0.62x without (docs/benchmarks.md; measured before the server pinned Node's
//   nextTick shape, apps/server/src/lib/tick-shape.ts). Not added when NODE_OPTIONS or the command line sets it already.
// - V8's gc extension under the name `__manaboardGc` (`--expose-gc-as`), so the server can settle its heap once
//   it goes quiet after a busy spell (apps/server/src/lib/memory-trim.ts): the start's burst of allocation grows V8's
//   young generation, and V8 kept those pages, ~45 MB of an idle demo after a restart (240 MB resident, 196 MB
//   settled). The name is not `gc`, so no other code sees it.
// - On Linux, glibc's malloc returns large freed blocks: `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072`, a
//   fixed mmap threshold at glibc's own starting value (a documented tunable). V8 mallocs ~600 MB for a moment while
//   it optimises PGlite's WebAssembly, and glibc, which raises its threshold each time a large block is freed (up to
//   32 MB), then kept most of it in its arenas, resident for good (~80 MB of an idle demo). A GLIBC_TUNABLES already
//   in the environment is kept as it is; other C libraries ignore the variable. (Smaller holes left in the heap are
//   given back by the server's own trim, apps/server/src/lib/memory-trim.ts.)
//
// Where process.execve does not exist (Windows), nothing changes.
const TUNABLES = 'glibc.malloc.mmap_threshold=131072';
const GC_FLAG = '--expose-gc-as=__manaboardGc';
const SEMI_SPACE = '--max-semi-space-size=4';

const server = (process.argv[2] ?? 'main') === 'main';
const exposesGc = process.execArgv.includes(GC_FLAG);
const setsSemiSpace = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
  flag.startsWith('--max-semi-space-size'),
);
const addTunables = process.platform === 'linux' && process.env.GLIBC_TUNABLES === undefined;
if (server && process.execve && (addTunables || !exposesGc || !setsSemiSpace)) {
  const flags = [...(exposesGc ? [] : [GC_FLAG]), ...(setsSemiSpace ? [] : [SEMI_SPACE])];
  process.execve(
    process.execPath,
    [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)],
    {
      ...process.env,
      ...(addTunables ? { GLIBC_TUNABLES: TUNABLES } : {}),
    },
  );
}
// The first phase of the start's timing (apps/server/src/lib/start-phases.ts): node itself is up.
const { user, system } = process.cpuUsage();
performance.mark('start: node', { detail: { cpuMicros: user + system } });
