import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A PLC directory in front of the local network's (the verifier's --plc): it forwards every DID, except those a
 * test rewrites (a DID document whose PDS points nowhere, or at a server that never answers).
 */
export async function startPlcProxy(
  plcUrl: string,
  rewrite: Map<string, (doc: Record<string, unknown>) => unknown>,
) {
  const server = http.createServer(async (req, res) => {
    const did = decodeURIComponent((req.url ?? '/').slice(1));
    const answer = await fetch(new URL(req.url ?? '/', plcUrl));
    const body = await answer.text();
    const change = rewrite.get(did);
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(change && answer.ok ? JSON.stringify(change(JSON.parse(body) as Record<string, unknown>)) : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that accepts connections and never answers (a record server timing out). */
export async function startSilentServer() {
  const sockets = new Set<Socket>();
  const server = http.createServer(() => undefined);
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The DID document with its PDS endpoint replaced. */
export function pdsAt(endpoint: string) {
  return (doc: Record<string, unknown>) => ({
    ...doc,
    service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: endpoint }],
  });
}
