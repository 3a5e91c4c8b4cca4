import type { Config } from '../../config/config';
import { fullOfficialHandle, resolveHandle } from './bluesky-reading';

/** One line of the deployment check: what was checked, and whether it is fine. */
export type CheckLine = { ok: boolean; text: string };

const TIMEOUT_MS = 10_000;
const messageOf = (error: unknown) =>
  error instanceof Error
    ? error.cause instanceof Error
      ? error.cause.message
      : error.message
    : String(error);

/** Whether a URL answers 200 within the timeout; the problem in words otherwise. */
async function answers(
  url: string,
  fetchImpl: typeof fetch,
): Promise<{ body: unknown } | { problem: string }> {
  try {
    const response = await fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) return { problem: `answered ${response.status}` };
    return { body: await response.json().catch(() => null) };
  } catch (error) {
    return { problem: `did not answer (${messageOf(error)})` };
  }
}

/** Whether the relay's event stream accepts a subscription (opened, then closed at once). */
function relayAnswers(relayUrl: string): Promise<string | null> {
  const url = new URL('/xrpc/com.atproto.sync.subscribeRepos', relayUrl).toString();
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    const timer = setTimeout(() => finish('no answer within 10 s'), TIMEOUT_MS);
    function finish(problem: string | null) {
      clearTimeout(timer);
      socket.onopen = socket.onerror = socket.onclose = null;
      socket.close();
      resolve(problem);
    }
    socket.onopen = () => finish(null);
    socket.onerror = () => finish('the connection failed');
    socket.onclose = (event) => finish(`it closed the connection (${event.code})`);
  });
}

/**
 * The Bluesky half of the deployment check (docs/networks.md, "Go live on Bluesky"): the relay's event stream, the
 * AppView and the PLC directory answer; with an https origin, the OAuth client metadata and its JWKS answer from
 * that origin as authorization servers will fetch them. The official accounts are checked by the caller with
 * `blueskyOfficialResolver` (the engine keeps their DIDs; the adapter only resolves).
 */
export async function blueskyChecks(options: {
  config: Pick<Config, 'bluesky' | 'publicOrigin'>;
  fetch?: typeof fetch;
}): Promise<CheckLine[]> {
  const { config } = options;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const lines: CheckLine[] = [];
  const relay = await relayAnswers(config.bluesky.relayUrl);
  lines.push(
    relay
      ? { ok: false, text: `relay ${config.bluesky.relayUrl}: ${relay}; check BLUESKY_RELAY_URL` }
      : { ok: true, text: `relay ${config.bluesky.relayUrl} streams` },
  );
  const services = [
    ['AppView', 'BLUESKY_APPVIEW_URL', new URL('/xrpc/_health', config.bluesky.appviewUrl)],
    ['PLC directory', 'BLUESKY_PLC_URL', new URL('/_health', config.bluesky.plcUrl)],
  ] as const;
  for (const [name, variable, url] of services) {
    const answer = await answers(url.toString(), fetchImpl);
    lines.push(
      'problem' in answer
        ? { ok: false, text: `${name} ${url.origin}: ${answer.problem}; check ${variable}` }
        : { ok: true, text: `${name} ${url.origin} answers` },
    );
  }
  lines.push(...(await clientMetadataChecks(config.publicOrigin, fetchImpl)));
  return lines;
}

/**
 * Resolves an official account's handle to its DID now (a bare name gets `domain`: bsky.social, or the local test
 * network's `test`); null when it does not resolve.
 */
export function blueskyOfficialResolver(
  bluesky: Config['bluesky'],
  domain?: string,
): (handle: string) => Promise<string | null> {
  return async (handle) => (await resolveHandle(bluesky, fullOfficialHandle(handle, domain))) ?? null;
}

/** With an https origin, the client metadata and JWKS as an authorization server fetches them. */
async function clientMetadataChecks(origin: string, fetchImpl: typeof fetch): Promise<CheckLine[]> {
  if (!origin.startsWith('https://')) {
    return [
      {
        ok: true,
        text: `${origin} is a loopback client: no client metadata to serve (not for members on the internet)`,
      },
    ];
  }
  const metadataUrl = `${origin}/oauth/client-metadata.json`;
  const metadata = await answers(metadataUrl, fetchImpl);
  if ('problem' in metadata) {
    return [
      {
        ok: false,
        text: `client metadata ${metadataUrl} ${metadata.problem}: authorization servers fetch it from there, so PUBLIC_ORIGIN must reach this server over https`,
      },
    ];
  }
  const body = (metadata.body ?? {}) as { client_id?: unknown; jwks_uri?: unknown };
  if (body.client_id !== metadataUrl || typeof body.jwks_uri !== 'string') {
    return [
      {
        ok: false,
        text: `client metadata ${metadataUrl} answers, but not with this server's metadata (client_id ${String(body.client_id)}): check PUBLIC_ORIGIN and the proxy in front`,
      },
    ];
  }
  const jwks = await answers(body.jwks_uri, fetchImpl);
  const keys = 'body' in jwks ? (jwks.body as { keys?: unknown[] } | null)?.keys : undefined;
  return [
    { ok: true, text: `client metadata ${metadataUrl} answers` },
    'problem' in jwks
      ? { ok: false, text: `JWKS ${body.jwks_uri} ${jwks.problem}` }
      : keys && keys.length > 0
        ? { ok: true, text: `JWKS ${body.jwks_uri} answers with ${keys.length} key(s)` }
        : { ok: false, text: `JWKS ${body.jwks_uri} answers without a key` },
  ];
}
