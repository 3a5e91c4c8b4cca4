import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AdminLedgerCheck } from '@manaboard/contract/admin';
import { ConfirmDialog, type ConfirmRequest } from '../../../components/ui/confirm-dialog';
import { checkLedgerWeek, correctLedgerWeek, ledgerKeys } from '../api/ledger';
import { button, field, label, number, primaryButton } from './styles';

const standing = (s: AdminLedgerCheck['members'][number]['before']) =>
  s ? `#${s.rank}, ${number.format(s.mana)} Mana` : 'not on the board';

/** What a check found, in words. */
function verdict(check: AdminLedgerCheck): string {
  if (check.identical)
    return `The data still give edition ${check.edition} byte for byte: nothing to correct.`;
  if (!check.figuresChanged)
    return 'Only records or handles changed since the week closed (a record deleted since, a renamed member): no correction is needed.';
  return `The figures changed since edition ${check.edition}: ${check.membersChanged} ${check.membersChanged === 1 ? 'member moved' : 'members moved'}.`;
}

/**
 * A closed week against the data now, and its correction: the check says whether anything changed and which
 * members moved; when the figures changed, a correction with its reason stores the next edition (asked first).
 */
export function WeekCheck({ week }: { week: string }) {
  const id = useId();
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const check = useMutation({ mutationFn: () => checkLedgerWeek(week) });
  const correct = useMutation({
    mutationFn: () => correctLedgerWeek({ week, reason: reason.trim() }),
    onSuccess: () => {
      setReason('');
      check.reset();
      void client.invalidateQueries({ queryKey: ledgerKeys.all });
    },
  });
  const found = check.data?.data;
  return (
    <div className="space-y-3">
      <button
        type="button"
        className={button}
        disabled={check.isPending}
        onClick={() => {
          correct.reset();
          check.mutate();
        }}
      >
        {check.isPending ? 'Checking…' : `Check ${week} against the data now`}
      </button>
      <p role="status" className="text-sm text-emerald-200 empty:hidden">
        {correct.data
          ? `Edition ${correct.data.data.edition} stored (${correct.data.data.sha256}). The worker publishes its hash at its next run.`
          : found
            ? verdict(found)
            : ''}
      </p>
      {check.isError ? (
        <p role="alert" className="text-sm text-rose-200">
          The check failed: {check.error.message}
        </p>
      ) : null}
      {found && found.figuresChanged ? (
        <div className="space-y-3 rounded-lg border border-gold/40 bg-gold/10 p-3">
          <ul className="space-y-1 text-sm" aria-label={`Members who moved in ${week}`}>
            {found.members.map((m) => (
              <li key={m.author}>
                <span className="font-semibold">@{m.handle}</span>: {standing(m.before)} → {standing(m.after)}
              </li>
            ))}
          </ul>
          <form
            className="space-y-2"
            onSubmit={(event) => {
              event.preventDefault();
              setConfirm({
                title: `Issue a correction of ${week}?`,
                body: `Edition ${found.edition + 1} is stored beside the others (which never change), audited with your reason, and its hash published like the first.`,
                confirmLabel: 'Issue correction',
                onConfirm: () => correct.mutate(),
              });
            }}
          >
            <label htmlFor={`${id}-reason`} className={label}>
              Reason (kept in the audit log)
            </label>
            <textarea
              id={`${id}-reason`}
              className={field}
              rows={2}
              maxLength={500}
              required
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
            <button type="submit" className={primaryButton} disabled={correct.isPending || !reason.trim()}>
              {correct.isPending ? 'Storing…' : 'Issue correction'}
            </button>
          </form>
          {correct.isError ? (
            <p role="alert" className="text-sm text-rose-200">
              The correction failed: {correct.error.message}
            </p>
          ) : null}
        </div>
      ) : null}
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </div>
  );
}
