import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { MemberDetail } from '@manaboard/contract/admin';
import { ConfirmDialog, type ConfirmRequest } from '../../../components/ui/confirm-dialog';
import { adminMemberKeys, setQualification } from '../api/members';
import { formatWhen, input, label, panel, primaryButton } from './styles';

const REASON_MIN = 3;
const REASON_MAX = 500;

/**
 * The member's standing and the one action on it: disqualify (or requalify) with a reason. The reason of a
 * disqualification is what the member reads on their card, so it is required and the action is confirmed.
 */
export function QualificationPanel({ member }: { member: MemberDetail }) {
  const client = useQueryClient();
  const id = useId();
  const [reason, setReason] = useState('');
  const [invalid, setInvalid] = useState('');
  const [done, setDone] = useState('');
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const { disqualified, reason: shownReason, by, at } = member.disqualification;
  const handle = member.profile?.handle;
  const change = useMutation({
    mutationFn: setQualification,
    onSuccess: (result, body) => {
      setReason('');
      setDone(
        body.disqualified
          ? `@${result.data.handle} is disqualified.`
          : `@${result.data.handle} is requalified.`,
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: adminMemberKeys.all }),
  });

  return (
    <section aria-labelledby={`${id}-heading`} className={panel}>
      <h2 id={`${id}-heading`} className="text-lg font-bold">
        Standing
      </h2>
      {disqualified ? (
        <div className="space-y-1 text-sm">
          <p>
            Disqualified{by ? ` by ${by}` : ''}
            {at ? (
              <>
                {' '}
                on <time dateTime={at}>{formatWhen(at)}</time>
              </>
            ) : null}
            . The member reads this reason on their card:
          </p>
          <blockquote className="break-words border-l-2 border-rose-300/60 pl-3 text-violet-100">
            {shownReason ?? '—'}
          </blockquote>
        </div>
      ) : (
        <p className="text-sm text-violet-100">Qualified: on the leaderboard and earning Mana.</p>
      )}
      <p role="status" className="text-sm text-emerald-200 empty:hidden">
        {done}
      </p>
      <p role="alert" className="text-sm text-rose-200 empty:hidden">
        {change.isError ? change.error.message : ''}
      </p>
      {handle ? (
        <form
          noValidate
          aria-label={disqualified ? 'Requalify' : 'Disqualify'}
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            const text = reason.trim();
            if (text.length < REASON_MIN) {
              setInvalid(`Write a reason of at least ${REASON_MIN} characters.`);
              return;
            }
            setInvalid('');
            setDone('');
            const body = { handle, disqualified: !disqualified, reason: text };
            setConfirm({
              title: disqualified ? `Requalify @${handle}?` : `Disqualify @${handle}?`,
              body: disqualified
                ? `@${handle} returns to the leaderboard and earns Mana again; referral credit tied to them comes back.`
                : `@${handle} leaves the leaderboard and earns nothing while disqualified; the referral that brought them in loses its credit. They read your reason on their card: “${text}”`,
              confirmLabel: disqualified ? 'Requalify' : 'Disqualify',
              danger: !disqualified,
              onConfirm: () => change.mutate(body),
            });
          }}
        >
          <label htmlFor={`${id}-reason`} className={label}>
            {disqualified
              ? 'Reason for requalifying (kept in the audit log)'
              : 'Reason (the member reads it on their card)'}
          </label>
          <textarea
            id={`${id}-reason`}
            name="reason"
            rows={3}
            required
            maxLength={REASON_MAX}
            value={reason}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
            onChange={(event) => setReason(event.target.value)}
            className={input}
          />
          {invalid ? (
            <p id={`${id}-invalid`} className="text-sm text-rose-200">
              {invalid}
            </p>
          ) : null}
          <button
            type="submit"
            disabled={change.isPending}
            className={disqualified ? primaryButton : `${primaryButton} bg-rose-700 hover:bg-rose-600`}
          >
            {change.isPending ? 'Saving…' : disqualified ? `Requalify @${handle}` : `Disqualify @${handle}`}
          </button>
        </form>
      ) : (
        <p className="text-sm text-violet-200">Not a tracked author, so there is nothing to disqualify.</p>
      )}
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </section>
  );
}
