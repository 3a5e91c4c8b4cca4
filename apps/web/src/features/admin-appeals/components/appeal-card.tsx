import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  type AdminAppealsResponse,
  APPEAL_ANSWER_MAX_CHARS,
  type OperatorAppeal,
} from '@manaboard/contract/admin';
import { adminAppealKeys, answerAppeal, memberPagePath } from '../api/appeals';

const link =
  'font-semibold text-mana-soft underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold';
const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const at = (iso: string) => <time dateTime={iso}>{when.format(new Date(iso))} UTC</time>;

/**
 * One appeal: whose (a link to their page, where they can be requalified), the operator's reason, the member's
 * text, and the answer — or the form to give it. An answered appeal stays on the open list, marked answered,
 * until the list is next loaded.
 */
export function AppealCard({
  appeal,
  onAnswered,
}: {
  appeal: OperatorAppeal;
  onAnswered: (message: string) => void;
}) {
  const client = useQueryClient();
  const id = useId();
  const [answer, setAnswer] = useState('');
  const [invalid, setInvalid] = useState('');
  const send = useMutation({
    mutationFn: (text: string) => answerAppeal(appeal.id, { answer: text }),
    onSuccess: ({ data }) => {
      const merge = (list: AdminAppealsResponse | undefined) =>
        list && {
          ...list,
          data: {
            ...list.data,
            appeals: list.data.appeals.map((a) => (a.id === data.id ? { ...a, ...data } : a)),
          },
        };
      client.setQueryData(adminAppealKeys.list('open'), merge);
      client.setQueryData(adminAppealKeys.list('all'), merge);
      onAnswered(`Answer sent to @${appeal.handle}; they read it on their card.`);
      void client.invalidateQueries({ queryKey: adminAppealKeys.list('all') });
      // The member's page lists their appeals too.
      void client.invalidateQueries({ queryKey: ['admin', 'members'] });
    },
  });
  return (
    <li className="space-y-3 rounded-xl border border-white/10 bg-dusk/70 p-4 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-bold">
          <Link to={memberPagePath(appeal.authorId)} className={`${link} break-all`}>
            @{appeal.handle}
          </Link>
        </h2>
        <span
          className={`rounded-full border px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${
            appeal.answer ? 'border-emerald-300/60 text-emerald-200' : 'border-amber-300/60 text-amber-200'
          }`}
        >
          {appeal.answer ? 'Answered' : 'Open'}
        </span>
      </div>
      <div className="space-y-1">
        <p className="text-xs text-violet-200">Disqualified {at(appeal.disqualifiedAt)}, with the reason:</p>
        <blockquote className="break-words border-l-2 border-rose-300/60 pl-3 text-violet-100">
          {appeal.reason ?? '—'}
        </blockquote>
      </div>
      <div className="space-y-1">
        <p className="text-xs text-violet-200">Appeal sent {at(appeal.createdAt)}:</p>
        <p className="whitespace-pre-wrap break-words">{appeal.text}</p>
      </div>
      {appeal.answer ? (
        <div className="space-y-1">
          <p className="text-xs text-violet-200">
            Answered{appeal.answeredBy ? ` by ${appeal.answeredBy}` : ''}
            {appeal.answeredAt ? <> {at(appeal.answeredAt)}</> : null}:
          </p>
          <p className="whitespace-pre-wrap break-words border-l-2 border-emerald-300/60 pl-3">
            {appeal.answer}
          </p>
        </div>
      ) : (
        <form
          noValidate
          aria-label={`Answer @${appeal.handle}`}
          className="space-y-2"
          onSubmit={(event) => {
            event.preventDefault();
            const text = answer.trim();
            if (!text) {
              setInvalid('Write an answer first.');
              return;
            }
            setInvalid('');
            send.mutate(text);
          }}
        >
          <label
            htmlFor={`${id}-answer`}
            className="block text-xs font-bold uppercase tracking-wide text-violet-100"
          >
            Answer (the member reads it on their card)
          </label>
          <textarea
            id={`${id}-answer`}
            name="answer"
            rows={3}
            maxLength={APPEAL_ANSWER_MAX_CHARS}
            value={answer}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-invalid` : undefined}
            onChange={(event) => setAnswer(event.target.value)}
            className="w-full rounded-lg border border-white/15 bg-black/45 px-3 py-1.5 text-sm text-white focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft"
          />
          {invalid ? (
            <p id={`${id}-invalid`} className="text-rose-200">
              {invalid}
            </p>
          ) : null}
          <p role="alert" className="text-rose-200 empty:hidden">
            {send.isError ? send.error.message : ''}
          </p>
          <div className="flex flex-wrap items-center gap-3">
            <button
              type="submit"
              disabled={send.isPending}
              className="rounded-full bg-violet-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-violet-600 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
            >
              {send.isPending ? 'Sending…' : 'Send answer'}
            </button>
            <Link to={memberPagePath(appeal.authorId)} className={link}>
              Requalify @{appeal.handle} on their page
            </Link>
          </div>
        </form>
      )}
    </li>
  );
}
