/** The value of one sample line of a Prometheus exposition (undefined when absent). */
export function sample(body: string, line: string): number | undefined {
  const found = body.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}
