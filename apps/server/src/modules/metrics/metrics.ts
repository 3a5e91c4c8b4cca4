import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { Db } from '../../db/schema';
import type { JobName, JobOutcome } from '../../lib/job-types';
import { readThreadHeaps } from '../../lib/thread-heaps';
import type { LeaderboardCache } from '../leaderboard/leaderboard-cache';
import { totalsLagSeconds } from './metrics.repository';
import { RequestHistogram } from './request-histogram';
import { registerStreamMetrics, type StreamReader } from './stream-metrics';

/** What one finished job run reports (wall-clock duration; the job clock may be simulated). */
export type JobRunReport = { job: JobName; seconds: number; outcome: JobOutcome | null; error: boolean };

/** A rate-limit window of the network as the worker's client last saw it. */
export type RateWindowReading = { endpoint: string; remaining: number; limit: number };

/**
 * The process's Prometheus metrics on a registry of its own (so several apps in one test process never share
 * one): HTTP requests, the leaderboard cache, the worker's jobs, the network's calls and rate-limit windows,
 * the totals' lag, and Node's default metrics (event-loop delay, memory, CPU, GC). Gauges that need the
 * database are read when scraped, never on a timer.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly http: RequestHistogram;
  private readonly jobRuns: Counter<'job' | 'result'>;
  private readonly jobDuration: Histogram<'job'>;
  private readonly jobItems: Counter<'job' | 'kind'>;
  private readonly networkCalls: Counter<'endpoint' | 'status'>;
  private readonly streamSkips: Counter<'reason'>;
  private readonly streamRefilled: Counter<'stream'>;
  private readonly caches: LeaderboardCache[] = [];
  private rateWindows: (() => RateWindowReading[]) | undefined;
  private monthReads: (() => Promise<number>) | undefined;
  private streamReader: StreamReader | undefined;
  private lastJobFinishedAt: number | undefined;
  private defaultsOn = false;

  constructor(options: { db: Db; monthlyReadCap?: number | undefined }) {
    const registers = [this.registry];
    this.http = new RequestHistogram(
      'manaboard_http_request_duration_seconds',
      'HTTP requests by route pattern, method and status (the _count is the number of requests)',
      [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    );
    // A metric of our own shape: the registry only reads it (request-histogram.ts).
    this.registry.registerMetric(this.http as unknown as Metric);
    const caches = this.caches;
    new Counter({
      name: 'manaboard_leaderboard_cache_hits_total',
      help: 'Public leaderboard reads answered from the in-process cache',
      registers,
      collect() {
        this.reset();
        this.inc(caches.reduce((sum, c) => sum + c.hits, 0));
      },
    });
    new Counter({
      name: 'manaboard_leaderboard_cache_misses_total',
      help: 'Public leaderboard reads built from the database (then cached)',
      registers,
      collect() {
        this.reset();
        this.inc(caches.reduce((sum, c) => sum + c.misses, 0));
      },
    });
    this.jobRuns = new Counter({
      name: 'manaboard_job_runs_total',
      help: 'Worker job runs by job and result (ok or error)',
      labelNames: ['job', 'result'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'manaboard_job_duration_seconds',
      help: 'Wall-clock duration of worker job runs',
      labelNames: ['job'],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900],
      registers,
    });
    this.jobItems = new Counter({
      name: 'manaboard_job_items_total',
      help: 'What worker jobs processed, by job and kind of item (posts, authors, interactions, …)',
      labelNames: ['job', 'kind'],
      registers,
    });
    this.networkCalls = new Counter({
      name: 'manaboard_network_calls_total',
      help: 'Calls to the social network API by endpoint and HTTP status',
      labelNames: ['endpoint', 'status'],
      registers,
    });
    const readWindows = () => this.rateWindows?.() ?? [];
    new Gauge({
      name: 'manaboard_network_rate_limit_remaining',
      help: 'Requests left in the current rate-limit window of each endpoint (as last answered)',
      labelNames: ['endpoint'],
      registers,
      collect() {
        this.reset();
        for (const w of readWindows()) this.set({ endpoint: w.endpoint }, w.remaining);
      },
    });
    const readMonth = () => this.monthReads?.();
    new Gauge({
      name: 'manaboard_network_reads_this_month',
      help: 'Posts and users read from the network this UTC month (the pay-per-use budget)',
      registers,
      async collect() {
        const reads = await readMonth();
        if (reads !== undefined) this.set(reads);
      },
    });
    if (options.monthlyReadCap !== undefined) {
      new Gauge({
        name: 'manaboard_network_monthly_read_cap',
        help: 'The monthly read cap (X_MONTHLY_READ_CAP)',
        registers,
      }).set(options.monthlyReadCap);
    }
    new Gauge({
      name: 'manaboard_totals_lag_seconds',
      help: 'How far the totals lag the newest ingested post (0 when every ingested change is counted)',
      registers,
      async collect() {
        this.set(await totalsLagSeconds(options.db));
      },
    });
    new Gauge({
      name: 'manaboard_thread_heap_bytes',
      help: "Each thread's V8 heap (serving; database: the embedded database's thread; stream: the event stream's reader), by kind: used, total (committed), external (ArrayBuffers, PGlite's WebAssembly memory)",
      labelNames: ['thread', 'kind'],
      registers,
      async collect() {
        this.reset();
        for (const heap of await readThreadHeaps()) {
          this.set({ thread: heap.thread, kind: 'used' }, heap.usedBytes);
          this.set({ thread: heap.thread, kind: 'total' }, heap.totalBytes);
          this.set({ thread: heap.thread, kind: 'external' }, heap.externalBytes);
        }
      },
    });
    registerStreamMetrics(this.registry, () => this.streamReader);
    this.streamSkips = new Counter({
      name: 'manaboard_stream_skipped_total',
      help: 'Stream input skipped (each also logged), by reason: malformed or oversized frames, bad records or signatures, stalled connections',
      labelNames: ['reason'],
      registers,
    });
    this.streamRefilled = new Counter({
      name: 'manaboard_stream_refilled_frames_total',
      help: 'Stream frames a start read again, before the stored cursor, to refill the waiting room of likes that came before their post (nothing of them stored again)',
      // Labelled, so absent until a refill (the stream's series are absent where no stream runs).
      labelNames: ['stream'],
      registers,
    });
  }

  /** Frames a start read again to refill the stream's waiting room (stored before: not stored again). */
  countStreamRefill(stream: string, frames: number): void {
    this.streamRefilled.inc({ stream }, frames);
  }

  /** One piece of stream input skipped (the source logged why). */
  countStreamSkip(reason: string): void {
    this.streamSkips.inc({ reason });
  }

  /** Where the event stream's lag and rates come from (the last caller wins: the worker over the stored row). */
  watchStream(read: StreamReader): void {
    this.streamReader = read;
  }

  /** One answered request; called from each route's onResponse hook (app.ts). */
  observeRequest(route: string, method: string, status: number, seconds: number): void {
    this.http.observe(route, method, status, seconds);
  }

  /** The observer of one route, method and status: the stored reads' (http/stored-reads.ts), one per answer kept. */
  requestObserver(route: string, method: string, status: number): (seconds: number) => void {
    return this.http.observer(route, method, status);
  }

  /** Counts the cache's hits and misses at each scrape. */
  watchCache(cache: LeaderboardCache): void {
    this.caches.push(cache);
  }

  /** Reads the worker's rate-limit windows at each scrape. */
  /**
   * Where this month's reads come from: the network's budget ledger (any process), or the worker's own budget,
   * which also counts the calls it has not written to the ledger yet. The adapter supplies it, so this module
   * names no network.
   */
  watchMonthReads(read: () => Promise<number>): void {
    this.monthReads = read;
  }

  watchRateWindows(read: () => RateWindowReading[]): void {
    this.rateWindows = read;
  }

  observeNetworkCall(endpoint: string, status: number): void {
    this.networkCalls.inc({ endpoint, status });
  }

  observeJobRun(report: JobRunReport): void {
    this.jobRuns.inc({ job: report.job, result: report.error ? 'error' : 'ok' });
    this.jobDuration.observe({ job: report.job }, report.seconds);
    for (const [kind, count] of Object.entries(report.outcome?.counts ?? {})) {
      if (count > 0) this.jobItems.inc({ job: report.job, kind }, count);
    }
    this.lastJobFinishedAt = Date.now();
  }

  /** Wall-clock time of the last job this process's worker finished (undefined: none yet). */
  get lastJobRunAt(): number | undefined {
    return this.lastJobFinishedAt;
  }

  /** The Prometheus text exposition and its content type. */
  async exposition(): Promise<{ body: string; contentType: string }> {
    if (!this.defaultsOn) {
      // nodejs_eventloop_lag_* (monitorEventLoopDelay), process_resident_memory_bytes, nodejs_heap_*, GC: started
      // on the first scrape, so a process nobody scrapes (and every test app) runs no event-loop monitor.
      collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
      this.defaultsOn = true;
    }
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
