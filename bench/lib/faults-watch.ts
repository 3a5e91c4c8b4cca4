// What the faults bench watches while a fault runs: the app's /metrics and the board as a visitor reads it, every
// 250 ms; on PostgreSQL the stored cursor itself, every 100 ms; and each fault injected, with where the stored cursor
// stood then.
import pg from 'pg';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One sample of the app's /metrics (every 250 ms). */
export type Sample = {
  at: number;
  /** The stored cursor's network time (now − lag), ms; null when the app did not answer. */
  cursorTime: number | null;
  /** The earliest the cursor's time can be (the request's time − lag − the lag's rounding). */
  cursorLow: number | null;
  lag: number | null;
  totalsLag: number | null;
  replayedSeq: number;
};

/** One fault injected: when, and where the stored cursor stood. */
export type FaultEvent = { kind: string; at: number; cursorTime: number | null; lag: number | null };

/** The relay's time for frame i: the bench's relay produces frame i at relayStart + (i − backlog) / rate. */
export const frameOfTime = (relayStart: number, frames: number, rate: number, time: number) =>
  frames + ((time - relayStart) * rate) / 1000;

async function metrics(origin: string, token: string): Promise<Omit<Sample, 'at'> | null> {
  const asked = Date.now();
  try {
    const response = await fetch(`${origin}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return null;
    const text = await response.text();
    const value = (re: RegExp) => {
      const m = re.exec(text)?.[1];
      return m === undefined ? null : Number(m);
    };
    const lag = value(/^manaboard_stream_lag_seconds\{[^}]*\} (\S+)$/m);
    return {
      cursorTime: lag === null ? null : Date.now() - lag * 1000,
      // The app read its clock between the request and the answer (a loaded machine answers in up to seconds).
      cursorLow: lag === null ? null : asked - lag * 1000 - 50,
      lag,
      totalsLag: value(/^manaboard_totals_lag_seconds (\S+)$/m),
      replayedSeq: value(/^manaboard_stream_skipped_total\{reason="replayed-seq"\} (\S+)$/m) ?? 0,
    };
  } catch {
    return null;
  }
}

export class FaultWatch {
  readonly samples: Sample[] = [];
  /** The board as a visitor reads it meanwhile: never a 5xx. */
  readonly http = { ok: 0, fiveXx: 0, unreachable: 0 };
  readonly events: FaultEvent[] = [];
  /** The PostgreSQL cursor's seq, read every 100 ms (empty on the embedded database). */
  readonly seqs: number[] = [];
  finished = false;
  private readonly sampler: Promise<void>;
  private readonly seqPoller: Promise<void>;

  constructor(
    private readonly origin: string,
    private readonly token: string,
    private readonly relayStart: number,
    private readonly frames: number,
    private readonly rate: number,
    /** The bench's PostgreSQL, or null on the embedded database. */
    clusterUrl: string | null,
  ) {
    this.sampler = this.sample();
    this.seqPoller = clusterUrl ? this.pollSeq(clusterUrl) : Promise.resolve();
  }

  last(): Sample | undefined {
    return this.samples.at(-1);
  }

  /** A fault injected now, with the last known place of the stored cursor. */
  note(kind: string): void {
    const s = [...this.samples].reverse().find((x) => x.cursorTime !== null);
    this.events.push({ kind, at: Date.now(), cursorTime: s?.cursorTime ?? null, lag: s?.lag ?? null });
  }

  /** The frame the stored cursor stands at, by the last sample's lag. */
  cursorFrame(): number | null {
    const t = this.last()?.cursorTime;
    return t === null || t === undefined ? null : frameOfTime(this.relayStart, this.frames, this.rate, t);
  }

  /** Resolves once the stored cursor has moved past `frame` (the stream stores again). */
  async storingPast(frame: number): Promise<void> {
    for (;;) {
      const f = this.cursorFrame();
      if (f !== null && f > frame + this.rate / 5) return;
      await sleep(100);
    }
  }

  /** Resolves once the stored cursor has moved past where it stood at the last fault. */
  storingPastLastEvent(): Promise<void> {
    const e = this.events.at(-1);
    return this.storingPast(
      e?.cursorTime ? frameOfTime(this.relayStart, this.frames, this.rate, e.cursorTime) : 0,
    );
  }

  async stop(): Promise<void> {
    this.finished = true;
    await this.sampler;
    await this.seqPoller;
  }

  private async sample(): Promise<void> {
    while (!this.finished) {
      const m = await metrics(this.origin, this.token);
      this.samples.push({
        at: Date.now(),
        ...(m ?? { cursorTime: null, cursorLow: null, lag: null, totalsLag: null, replayedSeq: 0 }),
      });
      try {
        const response = await fetch(`${this.origin}/api/mana?limit=20`, {
          signal: AbortSignal.timeout(5_000),
        });
        await response.arrayBuffer();
        if (response.status >= 500) this.http.fiveXx++;
        else this.http.ok++;
      } catch {
        this.http.unreachable++;
      }
      await sleep(250);
    }
  }

  // The embedded database has one owner: there, the metrics' lag and each connection's cursor stand for it.
  private async pollSeq(url: string): Promise<void> {
    while (!this.finished) {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      try {
        await client.connect();
        while (!this.finished) {
          const r = await client.query<{ seq: number | null }>(
            "select (cursor->>'seq')::bigint as seq from ingest_state where job = 'stream'",
          );
          const seq = r.rows[0]?.seq;
          if (seq !== null && seq !== undefined) this.seqs.push(Number(seq));
          await sleep(100);
        }
      } catch {
        await sleep(200);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
  }
}
