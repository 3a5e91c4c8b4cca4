import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/database';
import { Metrics } from '../modules/metrics/metrics';
import { saveCursor } from '../modules/mana/ingest-state.repository';
import { storedStreamReading } from '../modules/stream-progress/stream-progress.service';
import { sample } from '../test/metrics-sample';
import { openTestDatabase, testDatabaseKinds } from '../test/test-database';
import type { JobLog } from './job';
import { StreamProgressReporter } from './stream-progress';

const START = Date.parse('2026-11-25T12:00:00Z');
const DAY_S = 86_400;

/** Every line the reporter logs, by level (the reporter's log is the worker's pino logger in production). */
function recordingLog() {
  const lines: Array<{ level: string; details: Record<string, unknown>; message: string }> = [];
  const at =
    (level: string) =>
    (details: unknown, message?: string): void => {
      lines.push({ level, details: details as Record<string, unknown>, message: message ?? '' });
    };
  const log = { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') } as JobLog;
  return { log, lines };
}

describe.each(testDatabaseKinds())('the stream progress reporter (%s)', (kind) => {
  let database: DatabaseHandle | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  async function setUp() {
    database = await openTestDatabase(kind);
    const clock = { now: START };
    const { log, lines } = recordingLog();
    const reporter = new StreamProgressReporter({
      db: database.db,
      log,
      source: 'bluesky',
      replayWindowMs: DAY_S * 1000,
      maxLagSeconds: 60,
      now: () => clock.now,
    });
    /** One second of the stream: `seen` events read, `stored` kept, the newest `lagSeconds` behind now. */
    const second = (seen: number, stored: number, lagSeconds: number) => {
      clock.now += 1_000;
      reporter.report({
        at: new Date(clock.now),
        seen,
        stored,
        cursorTime: new Date(clock.now - lagSeconds * 1000),
      });
    };
    return { db: database.db, clock, reporter, lines, second };
  }

  it('gives the lag, the read and store rates over the last 30 s and the replay window left', async () => {
    const { clock, reporter, second } = await setUp();
    expect(reporter.hasReports).toBe(false);
    for (let i = 0; i < 10; i++) second(2_000, 100, 1);
    // Ten seconds since start: averaged over those ten.
    expect(reporter.reading()).toMatchObject({
      lagSeconds: 1,
      seenPerSecond: 2_000,
      storedPerSecond: 100,
      replayWindowSeconds: DAY_S,
      replayWindowLeftSeconds: DAY_S - 1,
      totals: { seen: 20_000, stored: 1_000 },
    });
    for (let i = 0; i < 30; i++) second(3_000, 0, 2);
    // The window holds the last 30 s only: the first ten seconds have left it.
    expect(reporter.reading()).toMatchObject({ seenPerSecond: 3_000, storedPerSecond: 0, lagSeconds: 2 });
    // Nothing reported for 10 s (a stalled consumer): the lag grows with the clock, the rates fall.
    clock.now += 10_000;
    expect(reporter.reading()).toMatchObject({ lagSeconds: 12, seenPerSecond: 2_000 });
  });

  it('logs once when the lag passes the bound and once when it is back under half of it', async () => {
    const { clock, reporter, lines, second } = await setUp();
    second(100, 5, 30);
    second(100, 5, 61);
    second(100, 5, 90);
    // A stalled stream sends no report: the timer's check sees the lag grow all the same.
    clock.now += 5_000;
    reporter.checkLag();
    second(100, 5, 40); // under the bound, not yet under half of it: still behind
    second(100, 5, 29);
    second(100, 5, 10);
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['warn', 'stream: bluesky is behind: 61 s behind the network (bound 60 s)'],
      ['info', 'stream: bluesky caught up: 29 s behind the network after 8 s behind'],
    ]);
    expect(lines[0]?.details).toMatchObject({ lagSeconds: 61, replayWindowLeftSeconds: DAY_S - 61 });
  });

  it('stores a progress row another process reads: lag, rates and window, rates unknown once it is stale', async () => {
    const { db, clock, reporter, second } = await setUp();
    expect(await storedStreamReading(db, new Date(clock.now))).toBeNull();
    await reporter.persist(); // nothing reported yet: nothing stored
    expect(await storedStreamReading(db, new Date(clock.now))).toBeNull();
    for (let i = 0; i < 5; i++) second(500, 50, 3);
    await reporter.persist();
    const at = new Date(clock.now);
    expect(await storedStreamReading(db, at)).toEqual({
      source: 'bluesky',
      cursorTime: new Date(clock.now - 3_000),
      lagSeconds: 3,
      seenPerSecond: 500,
      storedPerSecond: 50,
      replayWindowSeconds: DAY_S,
      replayWindowLeftSeconds: DAY_S - 3,
      reportedAt: at,
      // Five seconds in: no tenth of a minute complete, no gain measured yet; within 10 s without a bound.
      storedTenths: [],
      catchUp: { state: 'caught-up', seconds: 0, gain: null },
    });
    // The worker stopped writing a minute ago: its lag keeps growing, its rates say nothing any more.
    const later = await storedStreamReading(db, new Date(clock.now + 60_000));
    expect(later).toMatchObject({ lagSeconds: 63, seenPerSecond: null, storedPerSecond: null });
    expect(later?.replayWindowLeftSeconds).toBe(DAY_S - 63);
  });

  it('reads the lag of the stored cursor itself when it is newer than the progress row (a restarted worker before its first report)', async () => {
    const { db, clock, reporter, second } = await setUp();
    for (let i = 0; i < 5; i++) second(500, 50, 3);
    await reporter.persist();
    // The stream stored on for 40 s of network time after the row was written (a backlog), then the process died.
    await saveCursor(db, 'stream', { seq: 9, time: new Date(clock.now + 37_000).toISOString() }, new Date());
    const at = new Date(clock.now + 60_000);
    expect(await storedStreamReading(db, at)).toMatchObject({
      cursorTime: new Date(clock.now + 37_000),
      lagSeconds: 23,
    });
    // An older stored cursor (or one without a time) leaves the row's.
    await saveCursor(db, 'stream', { seq: 1, time: new Date(clock.now - 60_000).toISOString() }, new Date());
    expect(await storedStreamReading(db, at)).toMatchObject({ lagSeconds: 63 });
    await saveCursor(db, 'stream', { seq: 1 }, new Date());
    expect(await storedStreamReading(db, at)).toMatchObject({ lagSeconds: 63 });
  });

  it('keeps the stored events per tenth of a minute and the time left to catch up a backlog', async () => {
    const { db, clock, reporter, second } = await setUp();
    // Ten minutes behind; each second the cursor advances 3 s of the network's time (the lag falls by 2 s).
    for (let i = 1; i <= 60; i++) second(1_000, 60, 600 - 2 * i);
    const reading = reporter.reading();
    expect(reading.lagSeconds).toBe(480);
    // START is on a tenth's boundary: the first tenth holds five reports (1 s to 5 s), the others six.
    expect(reading.storedTenths.map((t) => t.perSecond)).toEqual([50, 60, 60, 60, 60, 60, 60, 60, 60, 60]);
    expect(reading.storedTenths[0]?.at).toBe(new Date(START).toISOString());
    expect(reading.catchUp).toEqual({ state: 'catching-up', seconds: 240, gain: 3 });

    await reporter.persist();
    const stored = await storedStreamReading(db, new Date(clock.now), 60);
    expect(stored?.storedTenths).toEqual(reading.storedTenths);
    expect(stored?.catchUp).toEqual({ state: 'catching-up', seconds: 240, gain: 3 });

    // A minute without a report (the consumer stalled): the cursor's gain falls to nothing; not catching up.
    clock.now += 61_000;
    expect(reporter.reading().catchUp).toEqual({ state: 'not-catching-up', seconds: null, gain: 0 });
    expect(
      reporter
        .reading()
        .storedTenths.slice(-9)
        .every((t) => t.perSecond === 0),
    ).toBe(true);
  });

  it('shows in /metrics: the worker from its memory, an API process from the stored row', async () => {
    const { db, clock, reporter, second } = await setUp();
    const api = new Metrics({ db });
    api.watchStream(() => storedStreamReading(db, new Date(clock.now)));
    const scrape = async (metrics: Metrics) => (await metrics.exposition()).body;
    // No stream reported yet (a network read by polling): no stream sample at all.
    expect(await scrape(api)).not.toMatch(/^manaboard_stream_\w+[{ ]/m);

    const worker = new Metrics({ db });
    worker.watchStream(async () => reporter.reading());
    for (let i = 0; i < 4; i++) second(1_000, 20, 2);
    const body = await scrape(worker);
    expect(sample(body, 'manaboard_stream_lag_seconds{stream="bluesky"}')).toBe(2);
    expect(sample(body, 'manaboard_stream_events_per_second{stream="bluesky",kind="seen"}')).toBe(1_000);
    expect(sample(body, 'manaboard_stream_events_per_second{stream="bluesky",kind="stored"}')).toBe(20);
    expect(sample(body, 'manaboard_stream_events_total{stream="bluesky",kind="seen"}')).toBe(4_000);
    expect(sample(body, 'manaboard_stream_replay_window_left_seconds{stream="bluesky"}')).toBe(DAY_S - 2);
    // Within the bound (60 s): caught up; under a tenth of reports, no gain yet.
    expect(sample(body, 'manaboard_stream_catch_up_seconds{stream="bluesky"}')).toBe(0);
    expect(sample(body, 'manaboard_stream_cursor_gain{stream="bluesky"}')).toBeUndefined();
    for (let i = 0; i < 10; i++) second(1_000, 20, 2);
    expect(sample(await scrape(worker), 'manaboard_stream_cursor_gain{stream="bluesky"}')).toBe(1);

    await reporter.persist();
    clock.now += 3_000;
    const apiBody = await scrape(api);
    expect(sample(apiBody, 'manaboard_stream_lag_seconds{stream="bluesky"}')).toBe(5);
    expect(sample(apiBody, 'manaboard_stream_events_per_second{stream="bluesky",kind="stored"}')).toBe(20);
    // Totals are the worker process's own counters, not another process's.
    expect(sample(apiBody, 'manaboard_stream_events_total{stream="bluesky",kind="seen"}')).toBeUndefined();
  });
});
