import { nameList } from './env-values';

/**
 * The official accounts a deployment starts with (issue 25). The rules file's official accounts are examples for
 * the simulated X's demo world; anywhere else they would be strangers' accounts whose posts earn members Mana and
 * who are reserved as referrers, so a new database off the demo is seeded with the accounts named here, or none.
 */
export const programmeEnvShape = {
  /** Handles (comma separated, `@` optional) of the programme's official accounts; read when the rules are seeded. */
  OFFICIAL_ACCOUNTS: nameList(/^[A-Za-z0-9_.-]{1,253}$/, 'must be handles, comma separated').optional(),
};

export type ProgrammeConfig = {
  /** The official accounts to seed a new database with; undefined when OFFICIAL_ACCOUNTS is not set. */
  officialAccounts: string[] | undefined;
};

export function programmeConfig(e: { OFFICIAL_ACCOUNTS?: string[] | undefined }): ProgrammeConfig {
  return { officialAccounts: e.OFFICIAL_ACCOUNTS };
}
