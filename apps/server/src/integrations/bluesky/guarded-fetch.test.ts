import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch, ownListedRecord, RESPONSE_MAX_BYTES } from './guarded-fetch';

const DID = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz';
const OTHER = 'did:plc:abcdefghijklmnopqrstuvwx';
const LIKE = 'app.bsky.feed.like';
const POST = `at://${OTHER}/app.bsky.feed.post/3l3qo2vuowo2b`;
const CID = 'bafyreihqhqv2qyr3dm7wk5pk4j2kzq6zh3mexkmbhbdbl6w4jdpo4m4bq4';

/** A stand-in PDS on this machine (a private, http address: just what a hostile DID document would name). */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/ok' }).end();
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ records: [], pad: 'x'.repeat(RESPONSE_MAX_BYTES + 10) }));
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"records":[]}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the guarded fetch of a PDS a DID document names', () => {
  it('reaches a local http PDS only on a network that allows http (the local test network)', async () => {
    const open = guardedFetch({ allowHttp: true });
    const response = await open(`${base}/ok`);
    expect(await response.json()).toEqual({ records: [] });
    await expect(guardedFetch({ allowHttp: false })(`${base}/ok`)).rejects.toThrow(/forbidden protocol/i);
  });

  it('refuses private, loopback and link-local hosts over https, by address or by name', async () => {
    const guarded = guardedFetch({ allowHttp: false });
    for (const url of [
      'https://10.0.0.1/xrpc/com.atproto.repo.listRecords',
      'https://192.168.1.1/',
      'https://127.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://localhost/',
    ]) {
      // The guard's own refusal (before any connection), not a failure to connect.
      const error = await guarded(url).then(
        () => null,
        (e: unknown) => e as Error & { cause?: Error },
      );
      expect(String(error?.cause?.message), url).toMatch(/non-unicast address|not a public domain/);
    }
  });

  it('follows no redirect and reads no more than the size cap, even where http is allowed', async () => {
    const open = guardedFetch({ allowHttp: true });
    await expect(open(`${base}/redirect`)).rejects.toThrow();
    expect(await (await open(`${base}/ok`)).json()).toEqual({ records: [] });
    const big = await open(`${base}/big`);
    await expect(big.json()).rejects.toThrow();
  });
});

describe('a record a PDS lists', () => {
  const own = {
    uri: `at://${DID}/${LIKE}/3l3qo2vutsw2b`,
    cid: CID,
    value: { subject: { uri: POST } },
  };

  it("is kept when it is this account's record of the collection, naming the post", () => {
    expect(ownListedRecord(own, DID, LIKE, POST)).toEqual({ uri: own.uri, cid: CID });
  });

  it("is dropped when its id is another account's, another collection's, malformed, or names another post", () => {
    const foreign = [
      { ...own, uri: `at://${OTHER}/${LIKE}/3l3qo2vutsw2b` },
      { ...own, uri: `at://${DID}/app.bsky.feed.repost/3l3qo2vutsw2b` },
      { ...own, uri: `at://${DID}/${LIKE}/3l3qo2vutsw2b/extra` },
      { ...own, uri: `at://${DID}/${LIKE}/..` },
      { ...own, uri: `at://${DID}/${LIKE}` },
      { ...own, cid: 'not-a-cid' },
      { ...own, cid: undefined },
      { ...own, value: { subject: { uri: `${POST}x` } } },
    ];
    for (const record of foreign) {
      expect(ownListedRecord(record, DID, LIKE, POST), JSON.stringify(record)).toBeNull();
    }
  });
});
