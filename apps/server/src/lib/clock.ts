/**
 * Time as the network clients and jobs see it: the wall clock in production. The simulation and tests pass the
 * simulated clock, so waiting for a rate-limit reset (given in the simulation's epoch seconds) advances
 * simulated time.
 */
export type Clock = {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
};

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
