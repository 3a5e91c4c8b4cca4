// The faults bench's relay control: the distinct-traffic relay (distinct-relay-child.ts, its own process), every
// connection it served, the frames it sent out of order, and the faults it is told to make (drop every connection;
// be SIGKILLed and started again, replaying from before the cursor asked).
import { startDistinctRelay, type DistinctRelay } from './distinct-relay';
import type { RelayEvent, RelayOptions } from './distinct-relay-child';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection the relay served: the cursor it asked, where the relay began, the frames it sent. */
export type RelayConnection = { cursor: number | null; from: number; frames: number | null; probe: boolean };

export class FaultRelay {
  readonly connections: RelayConnection[] = [];
  /** Frames sent out of order: swapped pairs, steps back, and the frames those sent. */
  readonly disorder = { swap: 0, back: 0, frames: 0 };
  /** The relay sent its last frame to the stream's reader (and no reader connected since). */
  ended = false;
  /** The relay process now (a restart replaces it). */
  current!: DistinctRelay;
  private readonly byId = new Map<string, RelayConnection>();
  /** A restarted relay numbers its connections from 1 again. */
  private generation = 0;

  private constructor(readonly options: RelayOptions) {}

  static async start(options: RelayOptions): Promise<FaultRelay> {
    const relay = new FaultRelay(options);
    relay.current = await startDistinctRelay(options, relay.onEvent);
    return relay;
  }

  /** The stream's readers: the deployment check's probes left out. */
  readers(): RelayConnection[] {
    return this.connections.filter((c) => !c.probe);
  }

  /** Every connection is terminated (the relay process goes on). */
  drop(): void {
    this.current.child.send({ drop: true });
  }

  /** SIGKILL, 1 s down, then a new relay process that serves its first connection from `rewindFirst` frames before
   * the cursor asked. */
  async restart(rewindFirst: number): Promise<void> {
    this.current.child.kill('SIGKILL');
    await new Promise((resolve) => this.current.child.once('exit', resolve));
    await sleep(1_000);
    this.generation++;
    this.current = await startDistinctRelay({ ...this.options, rewindFirst }, this.onEvent);
  }

  close(): Promise<void> {
    return this.current.close();
  }

  // The deployment check's probe (the doctor: Node's own WebSocket, user-agent "node", opened and closed at once)
  // asks no cursor; the stream's reader is the `ws` client (no user-agent).
  private readonly onEvent = (event: RelayEvent) => {
    if (event.type === 'connect') {
      const c = { cursor: event.cursor, from: event.from, frames: null, probe: event.agent === 'node' };
      this.connections.push(c);
      this.byId.set(`${this.generation}:${event.id}`, c);
      if (!c.probe) this.ended = false;
      if (process.env.BENCH_FAULTS_VERBOSE)
        console.log(`    relay: connection from ${event.cursor} (sends from ${event.from}, ${event.agent})`);
    } else if (event.type === 'close') {
      const c = this.byId.get(`${this.generation}:${event.id}`);
      if (c) c.frames = event.frames;
    } else if (event.type === 'end') this.ended = true;
    else {
      this.disorder[event.kind]++;
      this.disorder.frames += event.frames;
    }
  };
}
