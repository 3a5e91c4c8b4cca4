/** The part of a logger the phases are written to (pino's). */
type PhaseLog = { debug: (details: object, message: string) => void };

/** Marks of the start are named with this prefix; scripts/run.mjs and runtime-env.mjs set theirs the same way. */
const PREFIX = 'start: ';

let log: PhaseLog | undefined;
let lastAt = 0;
let lastCpu = 0;

/** The process's CPU time (user + system) a mark recorded, µs; marks without it (none of ours) count as 0. */
function cpuOf(mark: { detail?: unknown }): number {
  const cpu = mark.detail as { cpuMicros?: number } | null | undefined;
  return cpu?.cpuMicros ?? 0;
}

function flush(): void {
  if (!log) return;
  const marks = performance.getEntriesByType('mark').filter((mark) => mark.name.startsWith(PREFIX));
  for (const mark of marks) {
    const phase = mark.name.slice(PREFIX.length);
    const cpu = cpuOf(mark as { detail?: unknown });
    log.debug(
      {
        phase,
        ms: Math.round(mark.startTime - lastAt),
        cpuMs: Math.round((cpu - lastCpu) / 1000),
        atMs: Math.round(mark.startTime),
      },
      'start: phase',
    );
    lastAt = mark.startTime;
    lastCpu = cpu;
    performance.clearMarks(mark.name);
  }
}

/** The detail of a phase's mark: the CPU time used so far, which a busy machine moves less than the wall clock. */
export function phaseDetail(): { detail: { cpuMicros: number } } {
  const { user, system } = process.cpuUsage();
  return { detail: { cpuMicros: user + system } };
}

/**
 * Ends a phase of the start (issue 33): at LOG_LEVEL=debug each phase is a `start: phase` line with how long it
 * took (`ms`, since the previous phase), the CPU time the process spent in it (`cpuMs`) and when it ended (`atMs`,
 * since the process started). Phases are kept as
 * performance marks until the logger exists, so the runner (scripts/run.mjs: node's own start, the build check)
 * and code below main.ts mark theirs without a logger or an import between them.
 */
export function markPhase(phase: string): void {
  performance.mark(`${PREFIX}${phase}`, phaseDetail());
  flush();
}

/** Writes the phases marked so far, and each later one as it ends, to `phaseLog` (main.ts's logger). */
export function logPhasesTo(phaseLog: PhaseLog): void {
  log = phaseLog;
  flush();
}
