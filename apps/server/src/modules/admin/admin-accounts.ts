/** Who may enter the console: a configured entry names the account by handle (any case) or by network id. */
export function isAdminAccount(
  accounts: readonly string[],
  account: { handle: string; networkUserId: string },
): boolean {
  const handle = account.handle.toLowerCase();
  return accounts.some((entry) => entry === account.networkUserId || entry.toLowerCase() === handle);
}

/** How an admin appears as the actor of the audit log: their handle and their stable network id. */
export function adminActor(admin: { handle: string; networkUserId: string }): string {
  return `admin:@${admin.handle} (${admin.networkUserId})`;
}
