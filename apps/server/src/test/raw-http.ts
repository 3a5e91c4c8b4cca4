import net from 'node:net';

/** One HTTP/1.1 response as it came over the wire. */
export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/** Everything a raw connection received, and whether (and when) the server closed it. */
export type RawExchange = {
  text: string;
  /** The responses parsed strictly one after the other (bytes left over fail parseResponses). */
  responses: RawResponse[];
  /** How many status lines appear anywhere in what came back: the count a client's parser would trip over. */
  statusLines: number;
  /** The server closed the connection (end or reset) while we listened, after this many ms; null: still open. */
  closedAfterMs: number | null;
};

const statusLine = /HTTP\/1\.[01] \d{3} /g;

/**
 * Parses the bytes of a connection into its responses, strictly: a status line, headers, then a body framed by
 * Content-Length or chunked encoding (none for the answers to HEAD, `bodiless(i)`). Anything that does not
 * parse, or bytes after the last response, throw.
 */
export function parseResponses(
  text: string,
  bodiless: (index: number) => boolean = () => false,
): RawResponse[] {
  const responses: RawResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const headEnd = text.indexOf('\r\n\r\n', at);
    if (headEnd < 0) throw new Error(`an unfinished response head: ${JSON.stringify(text.slice(at))}`);
    const [first = '', ...lines] = text.slice(at, headEnd).split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3}) /.exec(first);
    if (!match) throw new Error(`not a status line: ${JSON.stringify(first)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    at = headEnd + 4;
    let body = '';
    if (bodiless(responses.length)) {
      // No body, whatever Content-Length says.
    } else if (headers['transfer-encoding'] === 'chunked') {
      for (;;) {
        const sizeEnd = text.indexOf('\r\n', at);
        const size = Number.parseInt(text.slice(at, sizeEnd), 16);
        if (sizeEnd < 0 || Number.isNaN(size)) throw new Error('a broken chunk');
        at = sizeEnd + 2 + size + 2;
        if (size === 0) break;
        body += text.slice(sizeEnd + 2, sizeEnd + 2 + size);
      }
    } else {
      const length = Number(headers['content-length'] ?? '0');
      body = text.slice(at, at + length);
      if (Buffer.byteLength(body) !== length) throw new Error('a body shorter than its Content-Length');
      at += length;
    }
    responses.push({ status: Number(match[1]), headers, body });
  }
  return responses;
}

/** A step of what a client sends: bytes, a pause, or ending its side of the connection (a half-close). */
export type Send = string | { pauseMs: number } | { waitForResponses: number } | 'end';

/**
 * Opens a TCP connection to the server, sends the steps in order, then listens until the server closes it or
 * `listenMs` more pass, and parses what came back (`bodiless` as parseResponses).
 */
export async function rawExchange(
  port: number,
  steps: Send[],
  options: { listenMs?: number; bodiless?: (index: number) => boolean } = {},
): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let text = '';
  let closedAfterMs: number | null = null;
  const closed = new Promise<void>((resolve) => {
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      resolve();
    });
  });
  socket.on('data', (data: Buffer) => (text += data.toString('latin1')));
  socket.on('error', () => {}); // a reset shows as the close
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  for (const step of steps) {
    // A client the server cut off sends no more.
    if (closedAfterMs !== null) break;
    if (step === 'end') socket.end();
    else if (typeof step === 'string') socket.write(step, 'latin1');
    else if ('pauseMs' in step) await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
    else
      await until(
        () => (text.match(statusLine) ?? []).length >= step.waitForResponses || closedAfterMs !== null,
      );
  }
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, options.listenMs ?? 1_500))]);
  socket.destroy();
  return {
    text,
    responses: parseResponses(text, options.bodiless),
    statusLines: (text.match(statusLine) ?? []).length,
    closedAfterMs,
  };
}

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('no response within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A request head in HTTP/1.1 with a Host, then the given header lines. */
export function head(method: string, path: string, ...headers: string[]): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...headers, '', ''].join('\r\n');
}
