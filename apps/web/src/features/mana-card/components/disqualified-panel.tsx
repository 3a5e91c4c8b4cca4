import type { MemberStanding } from '@manaboard/contract';
import { appealErrorMessage, useSubmitAppeal } from '../api/standing';
import { AppealForm } from './appeal-form';

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/**
 * What a disqualified member's card shows instead of the ways to earn (issue 13): that they are disqualified,
 * the operator's reason, and their one appeal — the form until it is sent, then the appeal and the answer.
 */
export function DisqualifiedPanel({ handle, standing }: { handle: string; standing: MemberStanding }) {
  const send = useSubmitAppeal(handle);
  const appeal = standing.appeal;
  const current = !standing.canAppeal && appeal ? appeal : null;
  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto pr-1">
      <div role="status" className="rounded-xl border border-rose-300/40 bg-rose-950/50 px-3 py-2">
        <h3 className="text-sm font-extrabold text-rose-200">Your account is disqualified</h3>
        <p className="text-xs text-violet-100/85">
          Off the leaderboard, earning no Mana
          {standing.disqualifiedAt ? ` since ${dateOf(standing.disqualifiedAt)}` : ''}.
        </p>
        <p className="mt-1 text-xs font-semibold uppercase tracking-wider text-gold/90">Reason given</p>
        <p className="text-sm text-white">{standing.reason ?? 'No reason was recorded.'}</p>
      </div>
      {standing.canAppeal ? (
        <AppealForm
          sending={send.isPending}
          error={send.isError ? appealErrorMessage(send.error) : null}
          onSend={(text) => send.mutate(text)}
        />
      ) : null}
      {current ? (
        <section
          aria-label="Your appeal"
          className="rounded-xl border border-white/15 bg-black/35 px-3 py-2 text-sm"
        >
          {/* The answer first: it is what the member came back to read. */}
          <p className="text-xs font-semibold uppercase tracking-wider text-gold/90">
            {current.answer && current.answeredAt
              ? `Answer from the team · ${dateOf(current.answeredAt)}`
              : 'Answer from the team'}
          </p>
          <p className="whitespace-pre-wrap break-words text-violet-50">
            {current.answer ?? 'Not answered yet. The team reads every appeal.'}
          </p>
          <p className="mt-2 text-xs font-semibold uppercase tracking-wider text-gold/90">
            Your appeal · sent {dateOf(current.createdAt)}
          </p>
          <p className="whitespace-pre-wrap break-words text-xs text-violet-100/90">{current.text}</p>
        </section>
      ) : null}
    </div>
  );
}
