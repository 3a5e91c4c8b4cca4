import type { BlueskyAppView } from './bluesky-appview';
import type { LinkedProfile } from '../../social/social-network';
import type { AccountAge } from './bluesky-account-age';

/** What the handle resolves to is not known to the AppView yet (a brand-new account): read it from identity. */
export const INVALID_HANDLE = 'handle.invalid';

/**
 * A linking member's profile: handle, avatar and followers as the AppView shows them. An account the AppView has
 * not indexed yet still links: its handle then comes from the identity (DID document, checked both ways), with no
 * avatar and no followers. The creation date is never the AppView's: a self-hosted AppView reads it from the
 * member's own profile record, which any member can backdate. It comes from `accountAge` (the PLC directory).
 */
export async function linkedProfileOf(
  deps: {
    appview: BlueskyAppView;
    accountAge: Pick<AccountAge, 'createdAt'>;
    identityHandle: (did: string) => Promise<string>;
  },
  did: string,
): Promise<LinkedProfile> {
  const createdAt = await deps.accountAge.createdAt(did);
  try {
    const data = await deps.appview.getProfile({ actor: did });
    const handle = data.handle === INVALID_HANDLE ? await deps.identityHandle(did) : data.handle;
    return {
      networkUserId: did,
      handle,
      avatarUrl: data.avatar ?? null,
      createdAt,
      followers: data.followersCount ?? 0,
    };
  } catch {
    return {
      networkUserId: did,
      handle: await deps.identityHandle(did),
      avatarUrl: null,
      createdAt,
      followers: 0,
    };
  }
}
