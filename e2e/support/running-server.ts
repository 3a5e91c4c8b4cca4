/** A server process started by startServer (server.ts), as the e2e files and their support see it. */
export type RunningServer = {
  origin: string;
  dataDir: string;
  output: () => string;
  /** Whether the server process has exited (crashed, or stopped). */
  exited: () => boolean;
  /** Stops the server and removes its data directory (kept with `keepDataDir`, for the demo template). */
  stop: (options?: { keepDataDir?: boolean }) => Promise<void>;
};
