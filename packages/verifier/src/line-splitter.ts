/** One line of a ledger as read: its text without the `\n`, or why it could not be read. */
export type RawLine =
  | { number: number; text: string }
  | { number: number; problem: 'too long' | 'not UTF-8' | 'no final newline'; text?: string };

/**
 * Splits bytes into lines without holding more than one line (capped at `maxLineBytes`; a longer line is skipped
 * to its end and reported). Feed chunks with `push`, then call `end`.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private overflow = false;
  private number = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });

  constructor(
    private readonly maxLineBytes: (lineNumber: number) => number,
    private readonly emit: (line: RawLine) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (;;) {
      const at = buffer.indexOf(0x0a);
      if (at < 0) {
        this.take(buffer);
        return;
      }
      this.take(buffer.subarray(0, at));
      this.finishLine(false);
      buffer = buffer.subarray(at + 1);
    }
  }

  /** Ends the input; a last line without its `\n` is reported as such. */
  end(): void {
    if (this.size > 0 || this.overflow) this.finishLine(true);
  }

  private take(bytes: Buffer): void {
    if (this.overflow || bytes.byteLength === 0) return;
    if (this.size + bytes.byteLength > this.maxLineBytes(this.number + 1)) {
      this.overflow = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    // A copy: the chunk's memory may be reused by the stream after this call.
    this.parts.push(Buffer.from(bytes));
    this.size += bytes.byteLength;
  }

  private finishLine(last: boolean): void {
    this.number += 1;
    const number = this.number;
    if (this.overflow) {
      this.overflow = false;
      this.emit({ number, problem: 'too long' });
      return;
    }
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    let text: string;
    try {
      text = this.decoder.decode(bytes);
    } catch {
      this.emit({ number, problem: 'not UTF-8' });
      return;
    }
    this.emit(last ? { number, problem: 'no final newline', text } : { number, text });
  }
}
