import http from 'node:http';
import { parseArgs } from 'node:util';
import { isTamperCase, TAMPER_CASES, tamperLedger, type TamperCase } from './ledger-tamper';

/**
 * A development tool, outside the verifier (nothing imports it): an HTTP proxy in front of a Manaboard origin that
 * passes every request through, except the ledger documents (`/api/ledger/<week>` and
 * `/api/ledger/<week>/<edition>`), which it serves rewritten for one tampering case (ledger-tamper.ts). Point the
 * verifier at it to watch it catch a cheating operator on a real programme (docs/networks.md, "Checking the demo's
 * week"):
 *
 *   npm run tamper-proxy -w @manaboard/verifier -- --origin http://localhost:3917 --case total --port 3918
 *   npm run verify -- http://localhost:3918 --week 2026-W48 --plc http://localhost:39999
 *
 * The ledger is read whole before it is rewritten (a demo's week is kilobytes; a real one would not fit the idea).
 */

const LEDGER_DOCUMENT = /^\/api\/ledger\/\d{4}-W\d{2}(\/\d+)?$/;

/** Whether a request's path (query aside) names a ledger document, not the index or a kept proof. */
export function isLedgerDocument(url: string): boolean {
  return LEDGER_DOCUMENT.test(url.split('?')[0]!);
}

/** Headers that describe the upstream's bytes, which a rewritten body no longer has. */
const BODY_HEADERS = ['content-length', 'content-encoding', 'etag', 'transfer-encoding'];

export type TamperProxy = { server: http.Server; url: string };

/** Starts the proxy; `log` hears one line per ledger it rewrites (or passes unchanged, and why). */
export async function startTamperProxy(options: {
  origin: string;
  tamperCase: TamperCase;
  port: number;
  log: (line: string) => void;
}): Promise<TamperProxy> {
  const origin = new URL(options.origin);
  const server = http.createServer((req, res) => {
    const ledger = req.method === 'GET' && isLedgerDocument(req.url ?? '/');
    const headers = { ...req.headers, host: origin.host };
    // The rewrite needs the plain bytes.
    if (ledger) headers['accept-encoding'] = 'identity';
    const upstream = http.request(
      { hostname: origin.hostname, port: origin.port, path: req.url, method: req.method, headers },
      (answer) => {
        if (!ledger || answer.statusCode !== 200) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('error', () => res.destroy());
        answer.on('end', () => {
          let body: string;
          try {
            const tampered = tamperLedger(Buffer.concat(chunks).toString('utf8'), options.tamperCase);
            options.log(`${req.url}: ${tampered.note}`);
            body = tampered.text;
          } catch (error) {
            options.log(`${req.url}: ${options.tamperCase} cannot apply: ${(error as Error).message}`);
            res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
            res.end(`tamper-proxy: ${(error as Error).message}\n`);
            return;
          }
          const kept = Object.fromEntries(
            Object.entries(answer.headers).filter(([name]) => !BODY_HEADERS.includes(name)),
          );
          res.writeHead(200, { ...kept, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`tamper-proxy: ${origin.origin} did not answer: ${error.message}\n`);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://localhost:${port}` };
}

const USAGE = `usage: tamper-proxy --origin <url> --case <${TAMPER_CASES.join('|')}> [--port 3918]`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      origin: { type: 'string' },
      case: { type: 'string' },
      port: { type: 'string', default: '3918' },
    },
  });
  const port = Number(values.port);
  if (!values.origin || !values.case || !isTamperCase(values.case) || !Number.isInteger(port)) {
    console.error(USAGE);
    process.exit(2);
  }
  const proxy = await startTamperProxy({
    origin: values.origin,
    tamperCase: values.case,
    port,
    log: (line) => console.error(`tamper-proxy ${line}`),
  });
  console.error(`tamper-proxy: ${proxy.url} → ${values.origin}, ledgers rewritten for case ${values.case}`);
  const stop = () => proxy.server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
