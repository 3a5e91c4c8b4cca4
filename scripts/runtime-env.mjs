// Imported first by scripts/run.mjs for the server (`main`): two V8 settings of the process itself that keep a server
// small (issue 23, docs/configuration.md "Memory"). V8 reads them only when a process starts, so `npm start`,
// `start:api` and `start:worker` give them on node's command line (package.json). A server started another way
// (`node scripts/run.mjs main` by hand) is replaced in place with them (process.execve: same pid, no second
// process), once: a second bootstrap of node, ~30 ms and ~65 ms of CPU (issue 33), that `npm start` does without.
//
// - V8's young generation at most 4 MB per semi-space (`--max-semi-space-size=4`), so a burst of load does not
//   grow the heap by tens of MB. In issue 23's interleaved benchmark (`npm run bench user`) the reads were within
//   the runs' noise either way: the cached leaderboard 0.50-0.55x bare with it, 0.45-0.47x uncapped or at 16 MB;
//   `/healthz` 0.60-0.76x with it, 0.62x without (docs/benchmarks.md; measured before the server pinned Node's
//   nextTick shape, apps/server/src/lib/tick-shape.ts). One in NODE_OPTIONS is the operator's and wins: node reads
//   NODE_OPTIONS before its command line, so then the process restarts without the command line's.
// - V8's gc extension under the name `__manaboardGc` (`--expose-gc-as`), so the server can settle its heap once
//   it goes quiet after a busy spell (apps/server/src/lib/memory-trim.ts): the start's burst of allocation grows V8's
//   young generation, and V8 kept those pages, ~45 MB of an idle demo after a restart (240 MB resident, 196 MB
//   settled). The name is not `gc`, so no other code sees it.
//
// glibc's mmap threshold, which this file once set in the environment (GLIBC_TUNABLES) before restarting, is fixed
// here, in the process, as early as the tunable was: `mallopt(M_MMAP_THRESHOLD, 131072)` through koffi, as
// apps/server/src/lib/malloc-threshold.ts explains (the server calls that too, for a server not started through
// this file). Called only before the database opened, after the start had loaded its code, the idle demo kept
// ~7 MB more (issue 33, docs/benchmarks.md): what the start frees before it is held by a raised threshold.
// Where process.execve does not exist (Windows), nothing changes.
import { createRequire } from 'node:module';
const GC_FLAG = '--expose-gc-as=__manaboardGc';
const SEMI_SPACE = '--max-semi-space-size=4';

const semiSpace = (flag) => flag.startsWith('--max-semi-space-size');
const server = (process.argv[2] ?? 'main') === 'main';
const exposesGc = process.execArgv.includes(GC_FLAG);
const operatorsSemiSpace = (process.env.NODE_OPTIONS ?? '').split(/\s+/).some(semiSpace);
const commandLineSemiSpace = process.execArgv.some(semiSpace);
// Missing, or the command line's would override the operator's.
const semiSpaceToFix = operatorsSemiSpace ? commandLineSemiSpace : !commandLineSemiSpace;
if (server && process.execve && (!exposesGc || semiSpaceToFix)) {
  const flags = [
    ...(exposesGc ? [] : [GC_FLAG]),
    ...(operatorsSemiSpace || commandLineSemiSpace ? [] : [SEMI_SPACE]),
    ...(operatorsSemiSpace ? process.execArgv.filter((flag) => !semiSpace(flag)) : process.execArgv),
  ];
  process.execve(process.execPath, [process.execPath, ...flags, ...process.argv.slice(1)], process.env);
}
if (server && process.platform === 'linux' && process.env.GLIBC_TUNABLES === undefined) {
  try {
    const koffi = createRequire(import.meta.url)('koffi');
    // M_MMAP_THRESHOLD (-3), at glibc's own starting value.
    koffi.load('libc.so.6').func('int mallopt(int param, int value)')(-3, 131072);
  } catch {
    // Not glibc, or koffi not installed: the server says so once it runs (memory-trim.ts).
  }
}
// The first phase of the start's timing (apps/server/src/lib/start-phases.ts): node itself is up.
const { user, system } = process.cpuUsage();
performance.mark('start: node', { detail: { cpuMicros: user + system } });
