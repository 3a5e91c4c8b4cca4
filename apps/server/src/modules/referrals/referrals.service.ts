import type { Kysely } from 'kysely';
import {
  HANDLE_PATTERN,
  normaliseHandle,
  type ProgrammeRules,
  type ReferralStatus,
} from '@manaboard/contract';
import type { ReferralConfig } from '../../config/config';
import type { Database } from '../../db/schema';
import { CatalogueError } from '../../lib/errors';
import { recordAudit } from '../audit/audit.repository';
import * as accounts from '../linking/accounts.repository';
import type { AccountRow } from '../linking/accounts.repository';
import { DAY_MS } from '../../lib/time';
import { activeRules } from '../programme/programme.service';
import * as repo from './referrals.repository';
/** A referrer chain longer than this is treated as a cycle rather than walked further. */
const MAX_CHAIN = 1_000;

/**
 * What the referral rules need to know. The reward, the anti-bot gate, the official accounts and the reserved
 * handles are programme rules, read through the programme service at each apply; RESERVED_HANDLES in the
 * configuration still adds names, for deployments that set it before the rules had the list.
 */
export type ReferralDeps = {
  db: Kysely<Database>;
  rules: ReferralConfig;
  now: () => number;
};

/**
 * The reserved list: the programme's official accounts, the handles its rules reserve and the names the server's
 * configuration still reserves (RESERVED_HANDLES), compared case-insensitively.
 */
export function reservedHandles(
  programme: Pick<ProgrammeRules, 'officialHandles' | 'reservedHandles'>,
  config: Pick<ReferralConfig, 'reservedHandles'>,
) {
  return new Set(
    [...programme.officialHandles, ...programme.reservedHandles, ...config.reservedHandles].map((h) =>
      h.toLowerCase(),
    ),
  );
}

/** The anti-bot gate (DESIGN §4, programme rules): a network account old enough and followed enough to be a referee. */
export function passesAntiBotGate(
  account: Pick<AccountRow, 'network_created_at' | 'followers'>,
  rules: Pick<ProgrammeRules, 'minAccountAgeDays' | 'minFollowers'>,
  now: number,
): boolean {
  // X always reports a creation date; an account without one cannot show its age.
  if (!account.network_created_at) return false;
  const ageDays = (now - account.network_created_at.getTime()) / DAY_MS;
  return ageDays >= rules.minAccountAgeDays && account.followers >= rules.minFollowers;
}

/**
 * Applies a referrer to a member, each rule one check, in the order whose first failure is reported:
 * NOT_CONNECTED, EMPTY_INPUT, INVALID_REFERRER (unknown, unlinked or disqualified; but a reserved name that
 * names nobody usable is HANDLE_RESERVED, which says more), SELF_REFERRAL,
 * ALREADY_REFERRED, a cycle (INVALID_REFERRER), HANDLE_RESERVED, REQUIRES_VERIFICATION. Both accounts are locked
 * for the checks, and the unique referee column settles any race left: N parallel applies make one referral.
 */
export async function applyReferral(
  deps: ReferralDeps,
  referee: AccountRow | undefined,
  input: string,
  actor: string,
): Promise<{ referrerHandle: string }> {
  if (!referee) throw new CatalogueError(403, 'NOT_CONNECTED');
  const handle = normaliseHandle(input);
  if (!handle) throw new CatalogueError(400, 'EMPTY_INPUT');
  if (!HANDLE_PATTERN.test(handle)) throw new CatalogueError(400, 'INVALID_REFERRER');
  const { version, rules } = await activeRules(deps.db);
  const reserved = reservedHandles(rules, deps.rules);

  return deps.db.transaction().execute(async (trx) => {
    const referrer = await accounts.findLinkedAccountByHandle(trx, handle);
    if (!referrer || referrer.disqualified) {
      // Official accounts need not be linked to be off limits.
      const code = reserved.has(handle.toLowerCase()) ? 'HANDLE_RESERVED' : 'INVALID_REFERRER';
      throw new CatalogueError(400, code);
    }
    if (referrer.id === referee.id) throw new CatalogueError(400, 'SELF_REFERRAL');
    await accounts.lockAccounts(trx, [referee.id, referrer.id]);
    if (await repo.findReferrerOf(trx, referee.id)) throw new CatalogueError(409, 'ALREADY_REFERRED');
    if (await chainReaches(trx, referrer.id, referee.id)) throw new CatalogueError(400, 'INVALID_REFERRER');
    if (reserved.has(referrer.handle.toLowerCase())) throw new CatalogueError(400, 'HANDLE_RESERVED');
    const now = deps.now();
    if (!passesAntiBotGate(referee, rules, now)) throw new CatalogueError(400, 'REQUIRES_VERIFICATION');

    const made = await repo.insertReferral(trx, {
      refereeAccountId: referee.id,
      referrerAccountId: referrer.id,
      rewardMana: rules.referralReward,
      createdAt: new Date(now),
    });
    if (!made) throw new CatalogueError(409, 'ALREADY_REFERRED');
    await recordAudit(trx, {
      actor,
      action: 'referral.apply',
      subject: referee.id,
      details: { referrerAccountId: referrer.id, rewardMana: rules.referralReward, rulesVersion: version },
    });
    return { referrerHandle: referrer.handle };
  });
}

/** True when `target` is `start` or appears up `start`'s chain of referrers (so linking them would close a loop). */
async function chainReaches(
  db: Parameters<typeof repo.findReferrerOf>[0],
  start: string,
  target: string,
): Promise<boolean> {
  let current: string | undefined = start;
  for (let step = 0; current !== undefined && step < MAX_CHAIN; step++) {
    if (current === target) return true;
    current = (await repo.findReferrerOf(db, current))?.referrerAccountId;
  }
  return current !== undefined;
}

/** `GET /referrals/status` for a member (a browser that is not linked is simply not referred). */
export async function referralStatus(
  db: Kysely<Database>,
  member: AccountRow | undefined,
): Promise<ReferralStatus> {
  const referral = member ? await repo.findReferrerOf(db, member.id) : undefined;
  return referral
    ? { status: 'already_referred', referrerHandle: referral.referrerHandle }
    : { status: 'not_referred', referrerHandle: null };
}

/** `GET /referrals/stats`: how many members this one referred. */
export async function referralStats(
  db: Kysely<Database>,
  member: AccountRow | undefined,
): Promise<{ refereeCount: number }> {
  return { refereeCount: member ? await repo.countReferees(db, member.id) : 0 };
}

/** `POST /referrals/link`: the member's slug (their handle) and shareable URL. */
export function referralLink(
  publicOrigin: string,
  member: AccountRow | undefined,
): { slug: string; url: string } {
  if (!member) throw new CatalogueError(403, 'NOT_CONNECTED');
  return { slug: member.handle, url: `${publicOrigin}/r/@${encodeURIComponent(member.handle)}` };
}
