// `npm run bench write-forms` (issue 33): what it costs Node to write one stored answer, handed to it as a latin1
// string (joined to the headers into one write) or as bytes (a second chunk, `writev`), for bodies of several sizes:
// the figure behind WRITEV_FROM_BYTES (apps/server/src/http/representations.ts). Counted in instructions, not seconds:
// lib/copy-server.mjs, the plain node:http server of `npm run bench user`, runs under valgrind's callgrind, whose
// count is the same whatever else the machine is doing, where a throughput on these shared machines swings by more
// than the difference measured. Each figure is (instructions after N2 requests − after N1) ÷ (N2 − N1), so the
// start and the shutdown cancel out; the instructions include V8's collections of what each way leaves behind, not
// the kernel's side of the system calls. Only when asked: about ten minutes for the default sizes, and valgrind
// must be installed.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { WRITEV_FROM_BYTES } from '../apps/server/src/http/representations';
import { keepNoBodies } from './lib/load';
import { fmt } from './lib/stats';

const PORT = 3996;
const SIZES_KB = (process.env.BENCH_WRITE_SIZES_KB ?? '2,6,7,8,10').split(',').map(Number);
const FEW = Number(process.env.BENCH_WRITE_FEW ?? 1_000);
const MANY = Number(process.env.BENCH_WRITE_MANY ?? 6_000);

/** The app's headers for a stored read (those of GET /api/posts), with the body's own length. */
function answerOf(url: string, bytes: number) {
  // A JSON-looking ASCII body of exactly `bytes` bytes.
  const body = `{"data":"${'m'.repeat(Math.max(0, bytes - 11))}"}`.slice(0, bytes);
  const head = [
    'vary',
    'Origin, Accept-Encoding',
    'cache-control',
    'public, max-age=15, stale-while-revalidate=60',
    'etag',
    '"b07HhnnlJDyREGrgJulTRgAko8I"',
    'content-type',
    'application/json; charset=utf-8',
    'cross-origin-resource-policy',
    'same-site',
    'x-content-type-options',
    'nosniff',
    'content-length',
    String(Buffer.byteLength(body)),
  ];
  return { url, encoding: '', status: 200, head, body: Buffer.from(body).toString('base64') };
}

/** Instructions the copy server ran, from its start to its exit, having answered `requests` to `url`. */
async function instructions(
  answers: string,
  url: string,
  asBytes: boolean,
  requests: number,
): Promise<number> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-write-forms-'));
  const out = path.join(dir, 'callgrind.out');
  const child = spawn(
    'valgrind',
    ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, 'bench/lib/copy-server.mjs'],
    {
      env: {
        ...process.env,
        PORT: String(PORT),
        ANSWERS: answers,
        // 0: every body handed to Node as bytes; none at all: every body as a latin1 string.
        WRITEV_FROM_BYTES: asBytes ? '0' : '',
      },
      stdio: 'ignore',
    },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    const target = `http://127.0.0.1:${PORT}${url}`;
    for (let attempt = 0; ; attempt += 1) {
      try {
        if ((await fetch(target, { headers: { 'accept-encoding': 'identity' } })).ok) break;
      } catch {
        // not listening yet (valgrind starts Node slowly)
      }
      if (attempt > 600 || child.exitCode !== null)
        throw new Error('the copy server did not start under valgrind');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await autocannon({ url: target, connections: 10, amount: requests, setupClient: keepNoBodies });
  } finally {
    child.kill('SIGINT');
  }
  await exited;
  const text = await fs.readFile(out, 'utf8');
  await fs.rm(dir, { recursive: true, force: true });
  const summary = /^summary: (\d+)$/m.exec(text);
  if (!summary?.[1]) throw new Error('callgrind wrote no summary');
  return Number(summary[1]);
}

export async function writeFormsBench(): Promise<void> {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    console.log('write forms: valgrind is not installed (apt-get install -y valgrind); nothing measured');
    return;
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-write-answers-'));
  const answers = path.join(dir, 'answers.json');
  const urls = SIZES_KB.map((kb) => ({ kb, url: `/size/${kb}`, bytes: Math.round(kb * 1024) }));
  await fs.writeFile(answers, JSON.stringify(urls.map(({ url, bytes }) => answerOf(url, bytes))));
  console.log(
    `write forms: instructions a request of the plain node:http server (lib/copy-server.mjs under callgrind, the app's ` +
      `seven headers), (after ${MANY} requests − after ${FEW}) ÷ ${MANY - FEW}; WRITEV_FROM_BYTES is ${WRITEV_FROM_BYTES}:`,
  );
  try {
    for (const { url, bytes } of urls) {
      const per = async (asBytes: boolean) =>
        ((await instructions(answers, url, asBytes, MANY)) -
          (await instructions(answers, url, asBytes, FEW))) /
        (MANY - FEW);
      const asString = await per(false);
      const asBytes = await per(true);
      console.log(
        `  body of ${bytes} B: as a latin1 string ${fmt(asString / 1000, 1)}k, as bytes ${fmt(asBytes / 1000, 1)}k ` +
          `(bytes ÷ string ${fmt(asBytes / asString)}; the app hands it over as ${bytes >= WRITEV_FROM_BYTES ? 'bytes' : 'a string'})`,
      );
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
