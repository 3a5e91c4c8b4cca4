import { resolveTxt } from 'node:dns/promises';
import * as z from 'zod/mini';
import type { Http } from './http';

/** What a handle resolves to: its DID, or why it could not be resolved (one sentence for the report). */
export type HandleResolution = { did: string; via: string } | { problem: string };

const didPattern = /^did:(?:plc|web):[A-Za-z0-9._:%-]{1,2000}$/;
const resolveHandleSchema = z.object({ did: z.string() });

/**
 * Resolves a handle to a DID the way AT Protocol defines it, without trusting the DID document that claims it: the
 * DNS TXT record `_atproto.<handle>` (`did=<did>`), else `https://<handle>/.well-known/atproto-did`. A handle
 * names its DID only through its own domain; a DID document's `alsoKnownAs` is the account's claim, which anyone
 * can write. With `via` (the command's `--handle-resolver`), the handle is asked of that server's
 * `com.atproto.identity.resolveHandle` instead: for a network whose handles live in no public DNS (the local test
 * network's `*.test`); that trusts the server named, so it is for tests and one's own PDS.
 */
export class Handles {
  private readonly cache = new Map<string, Promise<HandleResolution>>();

  constructor(
    private readonly http: Http,
    private readonly via: string | null = null,
    private readonly txt: (name: string) => Promise<string[][]> = resolveTxt,
  ) {}

  resolve(handle: string): Promise<HandleResolution> {
    const key = handle.toLowerCase();
    let found = this.cache.get(key);
    if (!found) this.cache.set(key, (found = this.load(key)));
    return found;
  }

  private async load(handle: string): Promise<HandleResolution> {
    if (!/^[a-z0-9.-]{1,253}$/.test(handle) || !handle.includes('.'))
      return { problem: `@${handle} is not a handle` };
    if (this.via) return this.askServer(handle, this.via);
    const dns = await this.fromDns(handle);
    if ('did' in dns) return dns;
    const web = await this.fromWellKnown(handle);
    if ('did' in web) return web;
    return { problem: `@${handle} does not resolve to a DID (${dns.problem}; ${web.problem})` };
  }

  private async fromDns(handle: string): Promise<HandleResolution> {
    const name = `_atproto.${handle}`;
    let records: string[][];
    try {
      records = await this.txt(name);
    } catch (error) {
      return { problem: `DNS TXT ${name}: ${(error as { code?: string }).code ?? (error as Error).message}` };
    }
    const dids = records
      .map((chunks) => chunks.join(''))
      .filter((text) => text.startsWith('did='))
      .map((text) => text.slice('did='.length).trim());
    if (dids.length !== 1 || !didPattern.test(dids[0]!))
      return {
        problem: `DNS TXT ${name} names ${dids.length === 1 ? 'no valid DID' : `${dids.length} DIDs`}`,
      };
    return { did: dids[0]!, via: `DNS TXT ${name}` };
  }

  private async fromWellKnown(handle: string): Promise<HandleResolution> {
    const url = `https://${handle}/.well-known/atproto-did`;
    try {
      const body = (await this.http.get(url, { accept: 'text/plain', maxBytes: 2_048 })).body;
      const did = Buffer.from(body).toString('utf8').trim();
      if (!didPattern.test(did)) return { problem: `${url} names no DID` };
      return { did, via: url };
    } catch (error) {
      return { problem: (error as Error).message };
    }
  }

  private async askServer(handle: string, via: string): Promise<HandleResolution> {
    const url = new URL('/xrpc/com.atproto.identity.resolveHandle', via);
    url.searchParams.set('handle', handle);
    try {
      const body = (await this.http.get(url.href, { accept: 'application/json', maxBytes: 8_192 })).body;
      const parsed = resolveHandleSchema.safeParse(JSON.parse(Buffer.from(body).toString('utf8')));
      if (!parsed.success || !didPattern.test(parsed.data.did))
        return { problem: `${url.origin} answered no DID for @${handle}` };
      return { did: parsed.data.did, via: `${url.origin} (com.atproto.identity.resolveHandle)` };
    } catch (error) {
      return { problem: `@${handle} could not be resolved: ${(error as Error).message}` };
    }
  }
}
