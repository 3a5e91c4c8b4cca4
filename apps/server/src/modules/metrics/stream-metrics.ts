import { Counter, Gauge, type Registry } from 'prom-client';
import type { StreamReading } from '../stream-progress/stream-progress.service';

export type StreamReader = () => Promise<StreamReading | null>;

/**
 * The event stream's metrics, read at scrape time from `read()` (the reporting worker's memory, or the progress
 * row the leader stores, in any other process), labelled by the stream's name. No sample exists until a stream
 * has reported, so a network read by polling shows none of them (a labelless gauge would say 0).
 */
export function registerStreamMetrics(registry: Registry, read: () => StreamReader | undefined): void {
  const registers = [registry];
  // Each metric reads on its own (a small indexed row or memory, once per scrape and metric).
  const reading = () => read()?.() ?? Promise.resolve(null);
  new Gauge({
    name: 'manaboard_stream_lag_seconds',
    help: 'How far the newest event stored lags the network: now minus that event’s network time',
    labelNames: ['stream'],
    registers,
    async collect() {
      this.reset();
      const r = await reading();
      if (r && r.lagSeconds !== null) this.set({ stream: r.source }, r.lagSeconds);
    },
  });
  new Gauge({
    name: 'manaboard_stream_events_per_second',
    help: 'Events per second over the last 30 s: seen = read from the network (kept and dropped), stored',
    labelNames: ['stream', 'kind'],
    registers,
    async collect() {
      this.reset();
      const r = await reading();
      if (!r) return;
      if (r.seenPerSecond !== null) this.set({ stream: r.source, kind: 'seen' }, r.seenPerSecond);
      if (r.storedPerSecond !== null) this.set({ stream: r.source, kind: 'stored' }, r.storedPerSecond);
    },
  });
  new Gauge({
    name: 'manaboard_stream_replay_window_left_seconds',
    help: 'How much more lag the source’s replay window allows before events are lost (the source’s window minus the lag)',
    labelNames: ['stream'],
    registers,
    async collect() {
      this.reset();
      const r = await reading();
      if (r && r.replayWindowLeftSeconds !== null) this.set({ stream: r.source }, r.replayWindowLeftSeconds);
    },
  });
  new Gauge({
    name: 'manaboard_stream_catch_up_seconds',
    help: 'Time left to catch up with the network at the cursor’s gain over the last minute: lag / (gain − 1); 0 within the lag bound; no sample when not catching up or unknown',
    labelNames: ['stream'],
    registers,
    async collect() {
      this.reset();
      const r = await reading();
      if (r && r.catchUp.seconds !== null) this.set({ stream: r.source }, r.catchUp.seconds);
    },
  });
  new Gauge({
    name: 'manaboard_stream_cursor_gain',
    help: 'Network seconds the stream’s cursor advanced per wall-clock second over the last minute (1: keeping pace)',
    labelNames: ['stream'],
    registers,
    async collect() {
      this.reset();
      const r = await reading();
      if (r && r.catchUp.gain !== null) this.set({ stream: r.source }, r.catchUp.gain);
    },
  });
  new Counter({
    name: 'manaboard_stream_events_total',
    help: 'Events this worker process read from the stream (seen, kept and dropped) and stored',
    labelNames: ['stream', 'kind'],
    registers,
    async collect() {
      this.reset();
      const r = await reading();
      if (!r?.totals) return;
      this.inc({ stream: r.source, kind: 'seen' }, r.totals.seen);
      this.inc({ stream: r.source, kind: 'stored' }, r.totals.stored);
    },
  });
}
