import path from 'node:path';
import { announcementInputSchema } from '@manaboard/contract/admin';
import { z } from 'zod';

import { backupDatabase } from '../db/backup';
import { formatUsageReport, XBudget } from '../integrations/x/x-budget';
import {
  createAnnouncement,
  deleteDraftAnnouncement,
  editAnnouncement,
  listAll,
  setAnnouncementStatus,
} from '../modules/announcements/announcements.service';
import { seedDemoAnnouncementsDetailed } from '../modules/announcements/demo-seed';
import { answerAppeal, listAppeals } from '../modules/appeals/appeals.service';
import { setAuthorDisqualified } from '../modules/mana/disqualification.service';
import { allStates } from '../modules/mana/ingest-state.repository';
import { changeRules } from '../modules/mana/rescore.service';
import { rebuildAllTotals } from '../modules/mana/totals.service';
import { activeRules } from '../modules/programme/programme.service';
import { ledgerActions } from './ledger-actions';
import { action, type OperatorAction } from './operator-action';

export type { OperatorAction, OperatorContext } from './operator-action';

const none = z.object({}).strict();

export const operatorActions = {
  'announcements.list': action(none, false, async ({ db }) => {
    const rows = await listAll(db);
    if (rows.length === 0) return 'No announcements yet.';
    return rows
      .map((a) => `${a.id}  ${a.status.padEnd(9)}  ${a.createdAt.slice(0, 10)}  ${a.title}`)
      .join('\n');
  }),
  'announcements.add': action(
    z.object({ announcement: announcementInputSchema, publish: z.boolean() }),
    true,
    async ({ db, actor }, { announcement, publish }) => {
      const created = await createAnnouncement(db, announcement, { actor, publish });
      return `Added ${created.id} as ${created.status}.`;
    },
  ),
  'announcements.status': action(
    z.object({ id: z.string().min(1), status: z.enum(['published', 'archived', 'draft']) }),
    true,
    async ({ db, actor }, { id, status }) => {
      const updated = await setAnnouncementStatus(db, id, status, { actor });
      return `${updated.id} is now ${updated.status}.`;
    },
  ),
  'announcements.edit': action(
    z.object({ id: z.string().min(1), announcement: announcementInputSchema }),
    true,
    async ({ db, actor }, { id, announcement }) => {
      const updated = await editAnnouncement(db, id, announcement, { actor });
      return `${updated.id} edited (${updated.status}).`;
    },
  ),
  'announcements.delete': action(z.object({ id: z.string().min(1) }), true, async ({ db, actor }, { id }) => {
    await deleteDraftAnnouncement(db, id, { actor });
    return `Deleted draft ${id}.`;
  }),
  'mana.qualification': action(
    z.object({ handle: z.string().min(1), disqualified: z.boolean(), reason: z.string().trim().min(1) }),
    true,
    async ({ db, actor }, input) => {
      const done = await setAuthorDisqualified(db, { ...input, actor });
      const verb = input.disqualified ? 'Disqualified' : 'Requalified';
      return `${verb} @${done.handle} (${done.authorId}); referrals changed: ${done.referralsChanged}.`;
    },
  ),
  'mana.appeals': action(none, false, async ({ db }) => {
    const { appeals } = await listAppeals(db, { status: 'open', limit: 100, offset: 0 });
    if (appeals.length === 0) return 'No open appeals.';
    return appeals
      .map((a) => `${a.id}  ${a.createdAt.slice(0, 10)}  @${a.handle} (${a.reason ?? '-'}): ${a.text}`)
      .join('\n');
  }),
  'mana.appeal.answer': action(
    z.object({
      appealId: z.string().regex(/^[1-9][0-9]{0,18}$/),
      answer: z.string().trim().min(1).max(1000),
    }),
    true,
    async ({ db, actor }, input) => {
      await answerAppeal(db, { ...input, actor, now: new Date() });
      return `Answered appeal ${input.appealId}; the member sees the answer on their card.`;
    },
  ),
  'mana.rules.show': action(none, false, async ({ db }) => {
    const { version, rules } = await activeRules(db);
    return JSON.stringify({ version, rules }, null, 2);
  }),
  'mana.rules.change': action(
    z.object({ rules: z.unknown(), file: z.string().min(1), source: z.string().min(1) }),
    true,
    async ({ db, actor, officialHandles }, input) => {
      const change = await changeRules(db, input.rules, {
        source: input.source,
        actor,
        now: new Date(),
        handles: officialHandles,
      });
      if (change.unchanged) {
        return `The rules in ${input.file} are those in force (v${change.version}); nothing stored.`;
      }
      const r = change.rescore;
      return `Stored the programme rules v${change.version} (changed: ${change.changedFields.join(', ')}); rescored ${r.recomputedAuthors} authors and ${r.repricedLines} pending interaction lines.`;
    },
  ),
  'mana.jobs': action(none, false, async ({ db }) => {
    const states = await allStates(db);
    if (states.length === 0) return 'No job has run yet.';
    return states
      .map((s) => {
        const reset = s.rate_limit_reset_at
          ? `  rate limit resets ${s.rate_limit_reset_at.toISOString()}`
          : '';
        return `${s.job.padEnd(12)} last run ${s.last_run_at?.toISOString() ?? '-'}  next ${s.next_run_at?.toISOString() ?? '-'}  calls ${s.calls_spent}${reset}${s.last_error ? `  last error: ${s.last_error}` : ''}`;
      })
      .join('\n');
  }),
  'mana.rebuild': action(none, true, async ({ db }) => {
    const active = await activeRules(db);
    const { version } = active;
    const started = Date.now();
    const authors = await rebuildAllTotals(db, active, new Date());
    return `Rebuilt the totals of ${authors} authors with rules v${version} in ${Date.now() - started} ms.`;
  }),
  'db.seed': action(none, true, async ({ db }) => {
    const { added, total } = await seedDemoAnnouncementsDetailed(db);
    return `Demo announcements: ${added} added (${total - added} already present).`;
  }),
  'db.backup': {
    ...action(
      // The command resolves the path from where it was typed; the owner may run in another directory.
      z.object({ file: z.string().refine((file) => path.isAbsolute(file), 'must be an absolute path') }),
      false,
      async ({ pglite }, { file }) => {
        if (!pglite) throw new Error('db.backup through the owner is for the embedded database only');
        const { bytes } = await backupDatabase({ kind: 'pglite', pglite }, file);
        return `Backed up the embedded database to ${file} (${bytes} bytes)`;
      },
    ),
    migrates: false,
  },
  'x.usage': action(none, false, async ({ db, monthlyReadCap }) => {
    return formatUsageReport(await new XBudget(db, monthlyReadCap).thisMonth());
  }),
  ...ledgerActions,
} satisfies Record<string, OperatorAction>;

export type OperatorActionName = keyof typeof operatorActions;

export function isOperatorActionName(name: unknown): name is OperatorActionName {
  return typeof name === 'string' && Object.hasOwn(operatorActions, name);
}
