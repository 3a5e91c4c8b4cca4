/**
 * Progress of the records' pass on stderr: a bar redrawn in place when stderr is a terminal, else a plain line
 * every ten seconds (logs and CI keep no carriage returns).
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDraw = 0;

  constructor(
    private readonly out: NodeJS.WriteStream | null,
    private readonly total: number,
    private readonly approximate: boolean,
  ) {}

  tick(): void {
    this.done += 1;
    if (!this.out) return;
    const now = Date.now();
    if (now - this.lastDraw < (this.out.isTTY ? 100 : 10_000)) return;
    this.lastDraw = now;
    this.draw(now);
  }

  finish(): void {
    if (!this.out) return;
    this.draw(Date.now());
    if (this.out.isTTY) this.out.write('\n');
  }

  private draw(now: number): void {
    const out = this.out!;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = this.done / seconds;
    const total = Math.max(this.total, this.done);
    const share = total === 0 ? 1 : this.done / total;
    const left = rate > 0 ? Math.max(0, (total - this.done) / rate) : 0;
    const text = `records ${this.done.toLocaleString('en')}/${this.approximate ? '~' : ''}${total.toLocaleString('en')} · ${rate.toFixed(0)}/s · ${clock(left)} left`;
    if (out.isTTY) {
      const width = 24;
      const filled = Math.round(share * width);
      out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${text}\x1b[K`);
    } else {
      out.write(`${text}\n`);
    }
  }
}

function clock(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}
