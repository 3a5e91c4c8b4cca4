import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { csrfTokenResponseSchema } from '@manaboard/contract';
import type { Db } from '../db/schema';
import { hashBrowserId } from '../modules/identity/browser-id';
import { bindBrowser, upsertAccount } from '../modules/linking/accounts.repository';
import { upsertAuthors } from '../modules/mana/authors.repository';

/**
 * A tracked author linked from one browser, written through the repositories the linking and ingest code use;
 * returns the browser's id and the account.
 */
export async function trackedMember(db: Db, user: { id: string; handle: string }, at: Date) {
  await upsertAuthors(
    db,
    [{ id: user.id, handle: user.handle, displayName: user.handle, avatarUrl: null, firstTrackedAt: at }],
    at,
  );
  const account = await upsertAccount(db, {
    networkUserId: user.id,
    handle: user.handle,
    avatarUrl: null,
    networkCreatedAt: null,
    followers: 100,
    sealedAccessToken: 'sealed',
    sealedRefreshToken: null,
    tokenExpiresAt: new Date(at.getTime() + 7_200_000),
    scopes: 'tweet.read users.read',
    now: at,
  });
  const browserId = randomUUID();
  await bindBrowser(db, hashBrowserId(browserId), account.id, at);
  return { account, browserId };
}

/** The headers of a member's write: their browser id and a CSRF token issued to it. */
export async function writeHeaders(app: FastifyInstance, browserId: string): Promise<Record<string, string>> {
  const response = await app.inject({
    method: 'GET',
    url: '/csrf-token',
    headers: { 'x-user-id': browserId },
  });
  const csrf = csrfTokenResponseSchema.parse(response.json()).data.csrfToken;
  return { 'x-user-id': browserId, 'x-csrf-token': csrf };
}
