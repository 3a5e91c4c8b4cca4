// Timing for the firehose benches: loops over in-memory frames, subjects interleaved round by round.
import { benchRounds } from './stats';

export const rounds = Math.max(benchRounds(), 3);
/** Each timing repeats its loop until it has run this long (the recording is a few thousand frames). */
const MIN_MS = Number(process.env.BENCH_FIREHOSE_MIN_MS ?? 400);

/** Items per second of `run`, repeated over the same `items` until MIN_MS have passed. */
export async function timeLoop(run: () => Promise<unknown> | unknown, items: number): Promise<number> {
  let reps = 0;
  const started = performance.now();
  do {
    await run();
    reps++;
  } while (performance.now() - started < MIN_MS);
  return (items * reps) / ((performance.now() - started) / 1000);
}

/** Each subject's rates, one per round; the order rotates each round so no subject always runs first. */
export async function interleaved<T>(
  subjects: T[],
  run: (subject: T) => Promise<number>,
): Promise<number[][]> {
  const rates: number[][] = subjects.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < subjects.length; k++) {
      const i = (k + round) % subjects.length;
      const subject = subjects[i];
      if (subject !== undefined) rates[i]?.push(await run(subject));
    }
  }
  return rates;
}
