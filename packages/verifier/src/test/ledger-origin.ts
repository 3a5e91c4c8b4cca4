import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the test programme's origin answers; tests change it between runs. */
export type OriginState = {
  /** The body of GET /api/ledger (a value is sent as JSON; a string as it is). */
  index: unknown;
  /** Ledger bodies by path (`/api/ledger/2026-W48/1`). */
  ledgers: Map<string, string | Buffer>;
  /** Kept proofs by record URI, for GET /api/ledger/:week/proof?uri=…; null: the route does not exist. */
  proofs: Map<string, { cid: string; car: Uint8Array; capturedAt: string }> | null;
  /** Paths whose answer stalls after its first bytes (a server that hangs mid-ledger). */
  stall: Set<string>;
};

/** A small HTTP server playing the programme's origin for the verifier: index, ledgers and kept proofs. */
export async function startLedgerOrigin(state: OriginState) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://origin');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (url.pathname === '/api/ledger') return json(200, state.index);
    const proof = /^\/api\/ledger\/[^/]+\/proof$/.exec(url.pathname);
    if (proof && state.proofs) {
      const kept = state.proofs.get(url.searchParams.get('uri') ?? '');
      if (!kept) return json(404, { success: false, error: { code: 'NOT_FOUND', message: 'no proof kept' } });
      return json(200, {
        success: true,
        data: {
          uri: url.searchParams.get('uri'),
          cid: kept.cid,
          capturedAt: kept.capturedAt,
          car: Buffer.from(kept.car).toString('base64'),
        },
      });
    }
    const body = state.ledgers.get(url.pathname);
    if (body === undefined)
      return json(404, { success: false, error: { code: 'NOT_FOUND', message: 'no such ledger' } });
    res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8' });
    if (state.stall.has(url.pathname)) {
      res.write(body.slice(0, 100));
      return; // never ends: the verifier's idle time-out must.
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An index listing one closed week's edition. */
export function indexOf(entry: {
  week: string;
  sha256: string;
  url: string;
  published: { uri: string; cid: string; at: string } | null;
}) {
  return {
    success: true,
    data: {
      network: 'bluesky',
      weeks: [
        {
          week: entry.week,
          state: 'closed',
          editions: [
            {
              edition: 1,
              createdAt: '2026-12-09T00:00:00.000Z',
              sha256: entry.sha256,
              url: entry.url,
              published: entry.published,
            },
          ],
        },
      ],
    },
  };
}
