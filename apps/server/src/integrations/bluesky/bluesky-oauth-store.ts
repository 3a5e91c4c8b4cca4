import { randomUUID } from 'node:crypto';
import type {
  NodeSavedSession,
  NodeSavedSessionStore,
  NodeSavedState,
  NodeSavedStateStore,
} from '@atproto/oauth-client-node';
import type { Jwk } from '@atproto/oauth-client-node';
import { JoseKey } from '@atproto/oauth-client-node';
import type { Db } from '../../db/schema';
import type { TokenVault } from '../../security/token-vault';

/** A pending authorization is worth nothing after the attempt's 10 minutes; older states are swept. */
const STATE_LIFETIME_MS = 60 * 60 * 1000;

/**
 * The OAuth client's store of pending authorizations (PKCE verifier, DPoP key, issuer), sealed in
 * `bluesky_oauth_states`. The client makes the `state` itself inside `authorize`; the write tells us which one,
 * so the attempt in modules/linking can be keyed by the very `state` that comes back on the callback: the
 * authorize call is tagged with its own `appState`, and the key written with that tag is remembered here.
 */
export class DatabaseStateStore implements NodeSavedStateStore {
  private readonly issued = new Map<string, string>();

  constructor(
    private readonly db: Db,
    private readonly vault: TokenVault,
    private readonly now: () => number,
  ) {}

  async set(key: string, value: NodeSavedState): Promise<void> {
    await this.db
      .deleteFrom('bluesky_oauth_states')
      .where('created_at', '<', new Date(this.now() - STATE_LIFETIME_MS))
      .execute();
    await this.db
      .insertInto('bluesky_oauth_states')
      .values({ key, sealed: await this.vault.seal(JSON.stringify(value)), created_at: new Date(this.now()) })
      .execute();
    if (value.appState) this.issued.set(value.appState, key);
  }

  async get(key: string): Promise<NodeSavedState | undefined> {
    const row = await this.db
      .selectFrom('bluesky_oauth_states')
      .select('sealed')
      .where('key', '=', key)
      .executeTakeFirst();
    return row ? (JSON.parse(await this.vault.open(row.sealed)) as NodeSavedState) : undefined;
  }

  async del(key: string): Promise<void> {
    await this.db.deleteFrom('bluesky_oauth_states').where('key', '=', key).execute();
  }

  /** The `state` the client wrote for the authorize call tagged `appState` (once: it is forgotten here). */
  takeIssued(appState: string): string | undefined {
    const key = this.issued.get(appState);
    this.issued.delete(appState);
    return key;
  }
}

/**
 * The OAuth client's sessions (DPoP key and token set, one per DID), sealed in `bluesky_oauth_sessions`. The
 * client refreshes a session itself and writes it back here; `link_id` survives those writes.
 */
export class DatabaseSessionStore implements NodeSavedSessionStore {
  constructor(
    private readonly db: Db,
    private readonly vault: TokenVault,
    private readonly now: () => number,
  ) {}

  async set(did: string, value: NodeSavedSession): Promise<void> {
    const sealed = await this.vault.seal(JSON.stringify(value));
    const updatedAt = new Date(this.now());
    await this.db
      .insertInto('bluesky_oauth_sessions')
      .values({ did, sealed, link_id: null, updated_at: updatedAt })
      .onConflict((oc) => oc.column('did').doUpdateSet({ sealed, updated_at: updatedAt }))
      .execute();
  }

  async get(did: string): Promise<NodeSavedSession | undefined> {
    const row = await this.db
      .selectFrom('bluesky_oauth_sessions')
      .select('sealed')
      .where('did', '=', did)
      .executeTakeFirst();
    return row ? (JSON.parse(await this.vault.open(row.sealed)) as NodeSavedSession) : undefined;
  }

  async del(did: string): Promise<void> {
    await this.db.deleteFrom('bluesky_oauth_sessions').where('did', '=', did).execute();
  }

  /** Names the link that owns the member's current session. */
  async nameLink(did: string, linkId: string): Promise<void> {
    await this.db
      .updateTable('bluesky_oauth_sessions')
      .set({ link_id: linkId })
      .where('did', '=', did)
      .execute();
  }

  /** The link that owns the member's current session, or undefined when they have none. */
  async linkOf(did: string): Promise<string | null | undefined> {
    const row = await this.db
      .selectFrom('bluesky_oauth_sessions')
      .select('link_id')
      .where('did', '=', did)
      .executeTakeFirst();
    return row ? row.link_id : undefined;
  }
}

const CLIENT_KEY_SECRET = 'bluesky-oauth-client-key';

/**
 * The confidential client's ES256 signing key (private_key_jwt): generated once, kept sealed in `server_secrets`
 * so every API process signs with the same key. Concurrent first calls agree: the insert does nothing on
 * conflict and everyone reads the stored row. Only its public half is ever served (`/oauth/jwks.json`).
 */
export async function loadOrCreateClientKey(db: Db, vault: TokenVault): Promise<JoseKey> {
  const generated = await JoseKey.generate(['ES256'], randomUUID());
  await db
    .insertInto('server_secrets')
    .values({ name: CLIENT_KEY_SECRET, value: await vault.seal(JSON.stringify(generated.privateJwk)) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', CLIENT_KEY_SECRET)
    .executeTakeFirstOrThrow();
  return JoseKey.fromJWK(JSON.parse(await vault.open(row.value)) as Jwk);
}
