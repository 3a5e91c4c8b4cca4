import net from 'node:net';

/** A port free on loopback right now, for a real process a test starts (tests never share fixed ports). */
export async function freePort(): Promise<number> {
  const { port, release } = await reservePort();
  await release();
  return port;
}

/**
 * A loopback port held (listened on) until `release`, for a test that must know its port long before it listens,
 * e.g. to configure the app's public origin before a network that takes seconds to start: a port from `freePort`
 * is free only at that moment, and the connections made meanwhile take ephemeral ports from the same range
 * (one took a freed port in CI: EADDRINUSE when the app listened).
 */
export async function reservePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return {
    port: address.port,
    release: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
