import { parseArgs } from 'node:util';
import { isoWeekSchema } from '@manaboard/contract/ledger';
import type { VerifyOptions } from './verify';

export const USAGE = `usage: npm run verify -- <origin> [--week 2026-W48] [--edition N] [--member <handle|did>]
                         [--sample 0.05] [--concurrency 8] [--proofs auto|record] [--plc https://plc.directory]
                         [--timeout 15] [--json]
                         [--handle-resolver <PDS or AppView URL>] [--official-domain bsky.social]

Checks a Manaboard week from its public URLs: the ledger's hash and the official account's signed post of it,
every record (or a random sample) on its author's server with the repository's proof, and every member's Mana
recomputed from the ledger and its rules. --proofs auto (the default) fetches once the whole repository of an
author with 8 or more records to check and checks them all against it (falling back to each record's own proof);
--proofs record fetches each record with its own proof. Exit 0: consistent; 1: a difference; 2: usage; 3: nothing
differs but something could not be checked.`;

export type Parsed = { help: true } | { help: false; json: boolean; options: VerifyOptions };

/** Parses the command line; throws an Error whose message says what is wrong (exit 2). */
export function parseCommandLine(argv: readonly string[]): Parsed {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      week: { type: 'string' },
      edition: { type: 'string' },
      member: { type: 'string' },
      sample: { type: 'string' },
      concurrency: { type: 'string' },
      proofs: { type: 'string' },
      plc: { type: 'string' },
      'handle-resolver': { type: 'string' },
      'official-domain': { type: 'string' },
      timeout: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: true };
  if (positionals.length !== 1)
    throw new Error('give exactly one origin, e.g. https://manaboard.example.org');
  const origin = httpUrl(positionals[0]!, 'the origin');
  const options: VerifyOptions = { origin };
  if (values.week !== undefined) {
    if (!isoWeekSchema.safeParse(values.week).success)
      throw new Error('--week must be an ISO week such as 2026-W48');
    options.week = values.week;
  }
  if (values.edition !== undefined) options.edition = whole(values.edition, '--edition', 1, 10_000);
  if (values.member !== undefined) {
    if (values.member.trim() === '') throw new Error('--member needs a handle or a DID');
    options.member = values.member.trim();
  }
  if (values.sample !== undefined) {
    const rate = Number(values.sample);
    if (!(rate > 0 && rate <= 1))
      throw new Error('--sample must be a share above 0 and at most 1, e.g. 0.05');
    options.sample = rate;
  }
  if (values.concurrency !== undefined)
    options.concurrency = whole(values.concurrency, '--concurrency', 1, 256);
  if (values.proofs !== undefined) {
    if (values.proofs !== 'auto' && values.proofs !== 'record')
      throw new Error('--proofs must be auto (an author with many records: its repository once) or record');
    if (values.proofs === 'record') options.repoThreshold = Infinity;
  }
  if (values.plc !== undefined) options.plcUrl = httpUrl(values.plc, '--plc');
  if (values['handle-resolver'] !== undefined)
    options.handleResolver = httpUrl(values['handle-resolver'], '--handle-resolver');
  if (values['official-domain'] !== undefined) {
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(values['official-domain']))
      throw new Error('--official-domain must be a domain such as bsky.social');
    options.officialDomain = values['official-domain'].toLowerCase();
  }
  if (values.timeout !== undefined)
    options.http = { timeoutMs: whole(values.timeout, '--timeout', 1, 600) * 1000 };
  return { help: false, json: values.json, options };
}

function whole(text: string, name: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return value;
}

function httpUrl(text: string, name: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${name} must be an http(s) URL, not ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`${name} must be an http(s) URL`);
  return url.href;
}
