// Two `npm start` servers side by side, each on its own fresh data directory, that differ only in settings:
// A with `envA` (default: none), B with `envB`; interleaved rounds A, B, A, … of 4 s (autocannon, 10 connections)
// on one path, ratio = B ÷ the mean of the A rounds around it, median of 7. Issue 23's check of what a memory
// setting costs per request, e.g. the semi-space cap:
//   npx tsx bench/settings-ab.ts '/api/mana?limit=20&weekly=true' '{"NODE_OPTIONS":"--max-semi-space-size=16"}'
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startAsUser } from './lib/user-process';
import { load } from './lib/load';
import { median } from './lib/stats';

const url = process.argv[2] ?? '/api/mana?limit=20&weekly=true';
const envB = JSON.parse(process.argv[3] ?? '{}') as Record<string, string>;
const envA = JSON.parse(process.argv[4] ?? '{}') as Record<string, string>;
const a = await startAsUser(3161, await fs.mkdtemp(path.join(os.tmpdir(), 'ab-a-')), envA);
const b = await startAsUser(3162, await fs.mkdtemp(path.join(os.tmpdir(), 'ab-b-')), envB);
const A = `http://127.0.0.1:3161${url}`;
const B = `http://127.0.0.1:3162${url}`;
await load(A, 2, 10, {});
await load(B, 2, 10, {});
const ra: number[] = [];
const rb: number[] = [];
const ratios: number[] = [];
let prev = (await load(A, 4, 10, {})).requestsPerSecond;
ra.push(prev);
for (let i = 0; i < 7; i++) {
  const tb = (await load(B, 4, 10, {})).requestsPerSecond;
  const ta = (await load(A, 4, 10, {})).requestsPerSecond;
  rb.push(tb);
  ra.push(ta);
  ratios.push(tb / ((prev + ta) / 2));
  prev = ta;
}
console.log(
  `${url}: B/A median ${median(ratios).toFixed(3)} ratios ${ratios.map((r) => r.toFixed(2)).join(' ')}; A ${median(ra).toFixed(0)} req/s, B ${median(rb).toFixed(0)} req/s`,
);
console.log(
  `rss A ${((await a.rss()) / 2 ** 20).toFixed(0)} MB, B ${((await b.rss()) / 2 ** 20).toFixed(0)} MB`,
);
await a.stop();
await b.stop();
process.exit(0);
