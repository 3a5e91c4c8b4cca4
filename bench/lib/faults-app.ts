// The app under a fault: `npm start` (API and worker in one process) on the bench's data, started again when a
// fault killed it, and the errors it logged (level ≥ 50), counted by message.
import { startAsUser, type UserServer } from './user-process';

export class AppUnderFault {
  /** Each error the app logged ("msg: err.message's first line"), and how often. */
  readonly errors = new Map<string, number>();
  /** The cursors a start asked the relay from to refill its waiting room (its `refilled` log line). */
  readonly refillAsks = new Set<number>();
  /** The process now (a restart replaces it). */
  current!: UserServer;

  private constructor(
    private readonly port: number,
    private readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(port: number, dataDir: string, env: Record<string, string>): Promise<AppUnderFault> {
    const app = new AppUnderFault(port, dataDir, env);
    await app.startAgain();
    return app;
  }

  /** `npm start` on the same data and settings. */
  async startAgain(): Promise<void> {
    const started = await startAsUser(this.port, this.dataDir, this.env);
    this.listen(started);
    this.current = started;
  }

  /** The server process gets SIGKILL (in the middle of whatever it does), and `npm start` is started again. */
  async killAndStart(): Promise<void> {
    const pid = await this.current.pid();
    if (pid) process.kill(pid, 'SIGKILL');
    await this.current.stop();
    await this.startAgain();
  }

  /** The exit code, or null while the process runs. */
  exitCode(): number | null {
    return this.current.child.exitCode;
  }

  stop(): Promise<void> {
    return this.current.stop();
  }

  private listen(app: UserServer): void {
    let buffered = '';
    app.child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line) as {
          level?: number;
          msg?: string;
          err?: { message?: string };
          kind?: string;
          asked?: number;
        };
        // A start that refilled its waiting room asked the relay from before its stored cursor (the app's log).
        if (entry.kind === 'refilled' && typeof entry.asked === 'number') this.refillAsks.add(entry.asked);
        if ((entry.level ?? 0) < 50) continue;
        const key = `${entry.msg ?? '?'}: ${(entry.err?.message ?? '').split('\n')[0]?.slice(0, 160)}`;
        this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
      }
    });
  }
}
