import os from 'node:os';
import { parseArgs } from 'node:util';
import { setAuthorDisqualified } from '../modules/mana/disqualification.service';
import { allStates } from '../modules/mana/ingest-state.repository';
import { withDatabase } from './with-database';

const usage = `Operate the Mana engine (until the operator console exists).

Usage:
  npm run mana -- disqualify <handle> --reason "why"   (vanishes from the leaderboard, earns nothing)
  npm run mana -- requalify <handle> --reason "why"
  npm run mana -- jobs                                 (the worker's job state)

Disqualification takes effect at the worker's next totals run and is written to the audit log.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { reason: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
});
const [command, handle] = positionals;

if (values.help || !command) {
  console.log(usage);
  process.exitCode = command || values.help ? 0 : 1;
} else if ((command === 'disqualify' || command === 'requalify') && (!handle || !values.reason?.trim())) {
  console.error(`${command} needs a handle and --reason "…"\n\n${usage}`);
  process.exitCode = 1;
} else {
  await withDatabase(async ({ db }) => {
    if (command === 'jobs') {
      for (const s of await allStates(db)) {
        console.log(
          `${s.job.padEnd(12)} last run ${s.last_run_at?.toISOString() ?? '-'}  next ${s.next_run_at?.toISOString() ?? '-'}  calls ${s.calls_spent}${s.last_error ? `  last error: ${s.last_error}` : ''}`,
        );
      }
      return;
    }
    if (command !== 'disqualify' && command !== 'requalify')
      throw new Error(`Unknown command ${command}\n\n${usage}`);
    const done = await setAuthorDisqualified(db, {
      handle: handle ?? '',
      disqualified: command === 'disqualify',
      reason: values.reason?.trim() ?? '',
      actor: `cli:${os.userInfo().username}`,
    });
    console.log(
      `${command === 'disqualify' ? 'Disqualified' : 'Requalified'} @${done.handle} (${done.authorId}); referrals changed: ${done.referralsChanged}.`,
    );
  });
}
