import type { Kysely } from 'kysely';
import type { ProgrammeRules } from '@manaboard/contract';
import type { Config } from '../config/config';
import type { Database } from '../db/schema';
import { createXClient } from '../integrations/x/x-client';
import { checkOfficialAccounts, type CheckLine } from '../modules/programme/official-accounts';
import { officialAccountProblems } from '../modules/programme/programme-seed';
import { findLatestRules } from '../modules/programme/programme.repository';
import { parseRules } from '../modules/programme/programme.service';
import { officialHandleRule } from '../integrations/official-handles';

export type { CheckLine } from '../modules/programme/official-accounts';

/** The simulated X's demo world: nothing real to reach, and the rules file's official accounts are its people. */
export const isSimulatedDemo = (config: Pick<Config, 'socialNetwork' | 'x'>) =>
  config.socialNetwork === 'x' && config.x.mode === 'simulated';

/**
 * The deployment check (`npm run doctor`, and at every start): the token key, the official accounts (named, not
 * the rules file's examples, still the accounts kept by id), and the network's services as this deployment uses
 * them. One line per check; nothing here throws for a problem, it says it.
 */
export async function runDoctor(options: {
  config: Config;
  /** The database, for the official accounts (absent: those checks are left out). */
  db?: Kysely<Database>;
  fetch?: typeof fetch;
  officialHandleDomain?: string;
  /** Whether X's official accounts are looked up (a paid user read each); default true. */
  resolveOfficials?: boolean;
}): Promise<CheckLine[]> {
  const { config, db } = options;
  const demo = isSimulatedDemo(config);
  const lines: CheckLine[] = [tokenKeyLine(config, demo)];
  const latest = db ? await findLatestRules(db) : undefined;
  // Before the first start, the official accounts are those OFFICIAL_ACCOUNTS will seed: checked (and kept by id) now.
  const rules: Pick<ProgrammeRules, 'officialHandles'> | undefined = latest
    ? parseRules(latest.rules, `rules v${latest.version}`)
    : db && !demo && config.programme.officialAccounts
      ? { officialHandles: config.programme.officialAccounts }
      : undefined;
  if (db) {
    const start = { demo, officialAccounts: config.programme.officialAccounts };
    lines.push(...(await officialAccountProblems(db, start)).map((text) => ({ ok: false, text })));
  }
  if (config.socialNetwork === 'bluesky') {
    // Bluesky's adapter (and its npm packages) is loaded only on Bluesky.
    const { blueskyChecks, blueskyOfficialResolver } = await import('../integrations/bluesky/bluesky-doctor');
    lines.push(...(await blueskyChecks({ config, ...(options.fetch ? { fetch: options.fetch } : {}) })));
    if (db && rules) {
      const resolve = blueskyOfficialResolver(config.bluesky, options.officialHandleDomain);
      lines.push(...(await checkOfficialAccounts(db, rules, resolve)));
    }
  } else if (demo) {
    lines.push({ ok: true, text: "the simulated X's demo: no network to reach" });
  } else if (db && rules && options.resolveOfficials !== false) {
    // One user read per official account (about $0.010 each on X's pay-per-use plan).
    const x = createXClient(config.x, db, options.fetch ? { fetch: options.fetch } : {});
    lines.push(
      ...(await checkOfficialAccounts(
        db,
        rules,
        async (handle) => (await x.network.authorByHandle(handle))?.networkUserId ?? null,
      )),
    );
    await x.budget.flush();
  }
  // Rules stored before a change of network may name accounts this network cannot have.
  for (const handle of rules?.officialHandles ?? []) {
    const problem = officialHandleRule(config.socialNetwork).problem(handle);
    if (problem) lines.push({ ok: false, text: `official account ${handle}: ${problem}` });
  }
  return lines;
}

function tokenKeyLine(config: Config, demo: boolean): CheckLine {
  if (config.tokenEncryptionKey) return { ok: true, text: 'TOKEN_ENCRYPTION_KEY is set' };
  return demo
    ? { ok: true, text: 'TOKEN_ENCRYPTION_KEY is not set: the demo keeps a generated key in DATA_DIR' }
    : {
        ok: false,
        text: "TOKEN_ENCRYPTION_KEY is not set: members' tokens and the OAuth signing key are sealed with a key generated into DATA_DIR, which another process or a restored backup does not have; set it (openssl rand -base64 32) and keep it with your backups",
      };
}

/** The lines as printed: problems first, each on one line. */
export function formatDoctor(lines: readonly CheckLine[]): string {
  const sorted = [...lines.filter((l) => !l.ok), ...lines.filter((l) => l.ok)];
  return sorted.map((l) => `${l.ok ? 'ok     ' : 'PROBLEM'}  ${l.text}`).join('\n');
}
