import { z } from 'zod';
import { isoWeekSchema } from '@manaboard/contract/ledger';
import { checkWeek, issueCorrection, type WeekCheck } from '../modules/ledger/ledger-correction.service';
import { storedEditions } from '../modules/ledger/ledger-store.repository';
import { action, type OperatorContext } from './operator-action';

const week = z.object({
  week: z.string().refine((w) => isoWeekSchema.safeParse(w).success, 'an ISO week such as 2026-W48'),
});

const contextOf = ({ db, pglite }: OperatorContext) => ({
  db,
  kind: pglite ? ('pglite' as const) : ('postgres' as const),
});

/** A check as the operator reads it: same, records only, or which members moved. */
export function describeCheck(check: WeekCheck): string {
  const head = `Week ${check.week}, edition ${check.edition}: stored ${check.stored}, the data now give ${check.current}.`;
  if (check.identical) return `${head}\nIdentical: nothing to correct.`;
  if (!check.figuresChanged)
    return `${head}\nOnly records or handles changed since the week closed (a record deleted since, a renamed member): no correction is needed.`;
  const moved = check.members.map((m) => {
    const was = m.before ? `#${m.before.rank} ${m.before.mana} Mana` : 'absent';
    const now = m.after ? `#${m.after.rank} ${m.after.mana} Mana` : 'absent';
    return `  @${m.handle} (${m.author}): ${was} → ${now}`;
  });
  const more =
    check.membersChanged > check.members.length
      ? [`  … and ${check.membersChanged - check.members.length} more`]
      : [];
  return [
    `${head}`,
    `The figures changed; ${check.membersChanged} member(s) moved:`,
    ...moved,
    ...more,
    'Issue a correction: npm run ledger -- correct <week> --reason "…"',
  ].join('\n');
}

/** The weekly ledger's operator actions (ADR 014): list the closed weeks, check one, correct one. */
export const ledgerActions = {
  'ledger.list': action(z.object({}).strict(), false, async ({ db }) => {
    const editions = await storedEditions(db);
    if (editions.length === 0) return 'No week is closed yet.';
    return editions
      .map(
        (e) =>
          `${e.week}  edition ${e.edition}  ${e.created_at.toISOString()}  ${e.sha256}  ${e.published_uri ? `published ${e.published_uri}` : e.publish_error ? `not published: ${e.publish_error}` : 'not published'}`,
      )
      .join('\n');
  }),
  'ledger.check': action(week, false, async (context, input) =>
    describeCheck(await checkWeek(contextOf(context), input.week)),
  ),
  'ledger.correct': action(
    week.extend({ reason: z.string().trim().min(1).max(500) }),
    false,
    async (context, input) => {
      const { edition, check } = await issueCorrection(contextOf(context), input.week, {
        actor: context.actor,
        reason: input.reason,
        now: new Date(),
      });
      return `Week ${input.week}: edition ${edition.edition} stored (${edition.sha256}), beside edition ${check.edition}; ${check.membersChanged} member(s) moved. The worker publishes its hash at its next run.`;
    },
  ),
};
