import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { invocationDirectory } from '../config/config';
import { setAuthorDisqualified } from '../modules/mana/disqualification.service';
import { allStates } from '../modules/mana/ingest-state.repository';
import { changeRules } from '../modules/mana/rescore.service';
import { activeRules, readRulesFile } from '../modules/programme/programme.service';
import { withDatabase } from './with-database';

const usage = `Operate the Mana engine (until the operator console exists).

Usage:
  npm run mana -- disqualify <handle> --reason "why"   (vanishes from the leaderboard, earns nothing)
  npm run mana -- requalify <handle> --reason "why"
  npm run mana -- rules                                (the programme rules in force, as JSON)
  npm run mana -- rules <file.json>                    (store them as the next version and rescore)
  npm run mana -- jobs                                 (the worker's job state)

Disqualification takes effect at the worker's next totals run; new rules at once (non-final posts, daily-limit
selection, pending interaction lines, totals and ranks; final posts keep their Mana). Both are audited.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { reason: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
});
const [command, argument] = positionals;
const actor = `cli:${os.userInfo().username}`;

if (values.help || !command) {
  console.log(usage);
  process.exitCode = command || values.help ? 0 : 1;
} else if ((command === 'disqualify' || command === 'requalify') && (!argument || !values.reason?.trim())) {
  console.error(`${command} needs a handle and --reason "…"\n\n${usage}`);
  process.exitCode = 1;
} else {
  await withDatabase(async ({ db }) => {
    if (command === 'jobs') {
      for (const s of await allStates(db)) {
        const reset = s.rate_limit_reset_at
          ? `  rate limit resets ${s.rate_limit_reset_at.toISOString()}`
          : '';
        console.log(
          `${s.job.padEnd(12)} last run ${s.last_run_at?.toISOString() ?? '-'}  next ${s.next_run_at?.toISOString() ?? '-'}  calls ${s.calls_spent}${reset}${s.last_error ? `  last error: ${s.last_error}` : ''}`,
        );
      }
      return;
    }
    if (command === 'rules') {
      if (!argument) {
        const { version, rules } = await activeRules(db);
        console.log(JSON.stringify({ version, rules }, null, 2));
        return;
      }
      // A relative path means the directory `npm run` was typed in.
      const file = path.resolve(invocationDirectory(), argument);
      const change = await changeRules(db, await readRulesFile(file), {
        source: `cli:${path.basename(file)}`,
        actor,
        now: new Date(),
      });
      if (change.unchanged) {
        console.log(`The rules in ${file} are those in force (v${change.version}); nothing stored.`);
        return;
      }
      const r = change.rescore;
      console.log(
        `Stored the programme rules v${change.version} (changed: ${change.changedFields.join(', ')}); rescored ${r.recomputedAuthors} authors and ${r.repricedLines} pending interaction lines.`,
      );
      return;
    }
    if (command !== 'disqualify' && command !== 'requalify')
      throw new Error(`Unknown command ${command}\n\n${usage}`);
    const done = await setAuthorDisqualified(db, {
      handle: argument ?? '',
      disqualified: command === 'disqualify',
      reason: values.reason?.trim() ?? '',
      actor,
    });
    console.log(
      `${command === 'disqualify' ? 'Disqualified' : 'Requalified'} @${done.handle} (${done.authorId}); referrals changed: ${done.referralsChanged}.`,
    );
  });
}
