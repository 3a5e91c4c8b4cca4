// A second yardstick for the reads of `npm run bench user` (issue 33): a plain node:http server, no framework, that
// answers each URL with the very bytes the app sent for it (status, headers and body, per encoding), recorded just
// before. What it costs is what any Node server pays to send those answers, so the app's distance to it is what the
// app itself adds, and its distance to the bare Fastify (whose answer is 41 bytes and five headers) is the price of
// the answer's size. Started as its own process: PORT, and ANSWERS (a JSON file of
// `{ url, encoding, status, head: [name, value, …], body: base64 }`), and WRITEV_FROM_BYTES: from that size on a body
// is handed to Node as bytes, under it as a latin1 string, as the app does (apps/server/src/http/representations.ts).
import fs from 'node:fs';
import http from 'node:http';

const writevFrom = process.env.WRITEV_FROM_BYTES ? Number(process.env.WRITEV_FROM_BYTES) : Infinity;
const answers = new Map();
for (const { url, encoding, status, head, body } of JSON.parse(
  fs.readFileSync(process.env.ANSWERS, 'utf8'),
)) {
  const bytes = Buffer.from(body, 'base64');
  answers.set(`${encoding} ${url}`, {
    status,
    head,
    body: bytes.length >= writevFrom ? bytes : bytes.toString('latin1'),
  });
}
const server = http.createServer((request, response) => {
  const encoding = (request.headers['accept-encoding'] ?? '').includes('br') ? 'br' : '';
  const answer = answers.get(`${encoding} ${request.url}`);
  if (!answer) {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(answer.status, answer.head);
  response.end(answer.body, 'latin1');
});
// Fastify's own keep-alive timeout, as the app and the bare server have it.
server.keepAliveTimeout = 72_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ ready: true }));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
