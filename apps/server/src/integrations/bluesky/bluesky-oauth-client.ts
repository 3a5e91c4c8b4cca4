import {
  buildAtprotoLoopbackClientMetadata,
  NodeOAuthClient,
  requestLocalLock,
  type JoseKey,
  type OAuthClientMetadataInput,
} from '@atproto/oauth-client-node';
import { ConfigError, type BlueskyConfig } from '../../config/config';
import type { Db } from '../../db/schema';
import type { TokenVault } from '../../security/token-vault';
import { DatabaseSessionStore, DatabaseStateStore, loadOrCreateClientKey } from './bluesky-oauth-store';

/** SPEC-style routes of the Bluesky flow; the start takes the member's handle. */
export const BLUESKY_LINK_PATHS = {
  startPath: '/auth/bluesky/start',
  callbackPath: '/auth/bluesky/callback',
} as const;

/** Where a confidential client's metadata and public keys are served (the metadata URL is its client_id). */
export const CLIENT_METADATA_PATH = '/oauth/client-metadata.json';
export const JWKS_PATH = '/oauth/jwks.json';

/** Identity only: the programme reads public records and never writes on a member's behalf. */
export const BLUESKY_SCOPE = 'atproto';

/** A cache that keeps nothing. */
const noCache = {
  get: () => Promise.resolve(undefined),
  set: () => Promise.resolve(),
  del: () => Promise.resolve(),
};

export type BlueskyClientKind = 'confidential' | 'loopback';

/**
 * Which OAuth client a public origin allows: https → a confidential client whose metadata and JWKS this server
 * serves; http on localhost or 127.0.0.1 (npm start, tests) → an AT Protocol loopback client, which needs no
 * metadata document; any other http origin cannot be a client at all, so the server refuses to start.
 */
export function clientKindFor(publicOrigin: string): BlueskyClientKind {
  const url = new URL(publicOrigin);
  if (url.protocol === 'https:') return 'confidential';
  if (url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]')
    return 'loopback';
  throw new ConfigError(
    `Invalid configuration:\n  PUBLIC_ORIGIN=${publicOrigin}: Bluesky sign-in needs an https PUBLIC_ORIGIN (or http://localhost / http://127.0.0.1 for a local run); see docs/networks.md`,
  );
}

/**
 * Where the network sends the browser back. A loopback client's redirect URI must be on 127.0.0.1 (never
 * "localhost"), so with PUBLIC_ORIGIN=http://localhost:PORT it is http://127.0.0.1:PORT/…, and the callback there
 * bounces the browser to the public origin (where its nonce cookie lives).
 */
export function redirectUriFor(publicOrigin: string): string {
  const url = new URL(BLUESKY_LINK_PATHS.callbackPath, publicOrigin);
  if (url.protocol === 'http:' && url.hostname === 'localhost') url.hostname = '127.0.0.1';
  return url.href;
}

/** The confidential client's metadata document, served at `{PUBLIC_ORIGIN}/oauth/client-metadata.json`. */
export function confidentialClientMetadata(
  publicOrigin: string,
  clientName: string,
): OAuthClientMetadataInput {
  return {
    client_id: `${publicOrigin}${CLIENT_METADATA_PATH}`,
    client_name: clientName,
    client_uri: publicOrigin as `https://${string}`,
    redirect_uris: [redirectUriFor(publicOrigin) as `https://${string}`],
    scope: BLUESKY_SCOPE,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    application_type: 'web',
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'ES256',
    dpop_bound_access_tokens: true,
    jwks_uri: `${publicOrigin}${JWKS_PATH}` as `https://${string}`,
  };
}

export type BlueskyOAuth = {
  client: NodeOAuthClient;
  kind: BlueskyClientKind;
  states: DatabaseStateStore;
  sessions: DatabaseSessionStore;
  /** The confidential client's key (its public JWK is served); none for a loopback client. */
  key: JoseKey | undefined;
  /** The metadata document to serve (confidential client only). */
  metadata: OAuthClientMetadataInput | undefined;
  /** Where the member's authorization server sends the browser back. */
  redirectUri: string;
};

/**
 * The official AT Protocol OAuth client (PAR, PKCE and DPoP are its own) on this deployment's stores and endpoints.
 * Sessions refresh themselves when used. Against a local network (BLUESKY_ALLOW_HTTP) every resolver fetches
 * through the plain global fetch: the default one refuses http: to guard against SSRF, which is right in production.
 */
export async function createBlueskyOAuth(input: {
  bluesky: BlueskyConfig;
  publicOrigin: string;
  clientName: string;
  db: Db;
  vault: TokenVault;
  now: () => number;
}): Promise<BlueskyOAuth> {
  const { bluesky, publicOrigin, db, vault, now } = input;
  const kind = clientKindFor(publicOrigin);
  const states = new DatabaseStateStore(db, vault, now);
  const sessions = new DatabaseSessionStore(db, vault, now);
  const key = kind === 'confidential' ? await loadOrCreateClientKey(db, vault) : undefined;
  const metadata =
    kind === 'confidential' ? confidentialClientMetadata(publicOrigin, input.clientName) : undefined;
  const clientMetadata =
    metadata ??
    buildAtprotoLoopbackClientMetadata({
      scope: BLUESKY_SCOPE,
      redirect_uris: [redirectUriFor(publicOrigin) as `http://127.0.0.1${string}`],
    });
  const client = new NodeOAuthClient({
    clientMetadata,
    ...(key ? { keyset: [key] } : {}),
    stateStore: states,
    sessionStore: sessions,
    // One process refreshes a given session at a time; across processes the PDS's refresh-token rotation
    // settles a race (the loser's session is dropped and the member relinks).
    requestLock: requestLocalLock,
    // Identities are read afresh on every link: a member who just changed their handle must be able to relink
    // with it (a cached DID document would still name the old one and fail the handle's two-way check).
    didCache: noCache,
    handleCache: noCache,
    plcDirectoryUrl: bluesky.plcUrl,
    allowHttp: bluesky.allowHttp,
    ...(bluesky.handleResolverUrl ? { handleResolver: bluesky.handleResolverUrl } : {}),
    ...(bluesky.allowHttp ? { fetch: globalThis.fetch } : {}),
  });
  return { client, kind, states, sessions, key, metadata, redirectUri: redirectUriFor(publicOrigin) };
}
