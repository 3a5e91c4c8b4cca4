import { useId } from 'react';
import { Link } from 'react-router';
import type { MemberDetail } from '@manaboard/contract/admin';
import { formatWhen, link, panel } from './styles';

/** The member's appeals (answered in the Appeals section) and the audit lines about them, newest first. */
export function MemberActivity({
  appeals,
  history,
}: {
  appeals: MemberDetail['appeals'];
  history: MemberDetail['history'];
}) {
  const id = useId();
  return (
    <>
      <section aria-labelledby={`${id}-appeals`} className={panel}>
        <h2 id={`${id}-appeals`} className="text-lg font-bold">
          Appeals
        </h2>
        {appeals.length === 0 ? (
          <p className="text-sm text-violet-200">No appeals.</p>
        ) : (
          <ul className="space-y-3 text-sm" aria-label="Appeals of this member">
            {appeals.map((appeal) => (
              <li
                key={appeal.id}
                className="space-y-1 border-t border-white/10 pt-2 first:border-0 first:pt-0"
              >
                <p className="text-xs text-violet-200">
                  Sent <time dateTime={appeal.createdAt}>{formatWhen(appeal.createdAt)}</time>
                </p>
                <p className="whitespace-pre-wrap break-words">{appeal.text}</p>
                {appeal.answer ? (
                  <p className="whitespace-pre-wrap break-words border-l-2 border-emerald-300/60 pl-3 text-violet-100">
                    <span className="font-semibold text-emerald-200">Answered</span>
                    {appeal.answeredAt ? ` ${formatWhen(appeal.answeredAt)}` : ''}: {appeal.answer}
                  </p>
                ) : (
                  <p>
                    Not answered yet.{' '}
                    <Link to="/admin/appeals" className={link}>
                      Answer in Appeals
                    </Link>
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby={`${id}-history`} className={panel}>
        <h2 id={`${id}-history`} className="text-lg font-bold">
          History
        </h2>
        {history.length === 0 ? (
          <p className="text-sm text-violet-200">Nothing recorded about this member.</p>
        ) : (
          <ol className="space-y-2 text-sm" aria-label="History, newest first">
            {history.map((entry, index) => {
              const reason = typeof entry.details.reason === 'string' ? entry.details.reason : null;
              return (
                <li key={index} className="border-t border-white/10 pt-2 first:border-0 first:pt-0">
                  <p>
                    <span className="font-mono text-xs text-gold">{entry.action}</span>{' '}
                    <span className="break-words text-violet-100">by {entry.actor}</span>
                  </p>
                  <p className="text-xs text-violet-200">
                    <time dateTime={entry.at}>{formatWhen(entry.at)}</time>
                  </p>
                  {reason ? <p className="break-words">“{reason}”</p> : null}
                </li>
              );
            })}
          </ol>
        )}
      </section>
    </>
  );
}
