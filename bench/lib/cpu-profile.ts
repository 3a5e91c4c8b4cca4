// Reads a V8 CPU profile (node --cpu-prof) and sums each function's own time, over the whole profile or over a
// span of the monotonic clock (process.hrtime, the clock V8 stamps its samples with), so a bench can name what
// the server spent a given tenth of a run on. Functions are keyed by name, file and line; the garbage collector,
// idle time and the program itself are V8's own entries.
import fs from 'node:fs/promises';
import path from 'node:path';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; startTime: number; samples: number[]; timeDeltas: number[] };

export type SelfTime = { name: string; ms: number; share: number };

const label = (n: Node) => {
  const { functionName, url, lineNumber } = n.callFrame;
  const file = url ? url.split('/').slice(-2).join('/') : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
};

/** Own time per function between `fromNs` and `toNs` (process.hrtime ns; omitted: the whole profile). */
export function selfTimes(
  profile: Profile,
  fromNs?: bigint,
  toNs?: bigint,
): { total: number; top: SelfTime[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const from = fromNs === undefined ? -Infinity : Number(fromNs / 1000n);
  const to = toNs === undefined ? Infinity : Number(toNs / 1000n);
  const own = new Map<string, number>();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, k) => {
    const delta = profile.timeDeltas[k] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const node = byId.get(id);
    if (!node) return;
    const name = label(node);
    own.set(name, (own.get(name) ?? 0) + delta);
    total += delta;
  });
  const top = [...own]
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => ({ name, ms: us / 1000, share: total > 0 ? us / total : 0 }));
  return { total: total / 1000, top };
}

/** The newest profile written into `dir`. */
export async function newestProfile(dir: string): Promise<Profile> {
  const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  const stats = await Promise.all(
    files.map(async (f) => ({ f, t: (await fs.stat(path.join(dir, f))).mtimeMs })),
  );
  const newest = stats.sort((a, b) => b.t - a.t)[0];
  if (!newest) throw new Error(`no .cpuprofile in ${dir}`);
  return JSON.parse(await fs.readFile(path.join(dir, newest.f), 'utf8')) as Profile;
}

export const formatTop = (top: readonly SelfTime[], n: number) =>
  top
    .slice(0, n)
    .map((t) => `${(t.share * 100).toFixed(1)} % ${t.name}`)
    .join('; ');
