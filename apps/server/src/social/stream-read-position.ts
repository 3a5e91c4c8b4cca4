/**
 * Where a source reads, as the interest records it with each event that begins to wait: the frame's `position`, a
 * number that grows along the stream (Bluesky: its seq), and the network's `time` of it (ISO 8601; null if unknown).
 * Its own module: the waiting room and its packed likes (stream-waiting-vote.ts) both name it.
 */
export type ReadPosition = { position: number; time: string | null };
