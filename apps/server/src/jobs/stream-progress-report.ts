/** One report per stored batch (or per cursor-only save), from the engine's stream loop. */
export type StreamProgressReport = {
  at: Date; // when the batch was stored
  seen: number; // events read from the network since the previous report (kept + dropped)
  stored: number; // events that reached the database in this batch
  cursorTime: Date | null; // the network's time of the newest event in the batch (null if unknown)
};
// in the job's deps:  onProgress?: (report: StreamProgressReport) => void
