import type { RulesFieldChange } from '@manaboard/contract/admin';
import { describeValue, labelOf } from './rule-fields';

/** Changed fields as cards (they fit a phone): the field, before → after, and for lists what came and went. */
export function ChangeList({ changes, label }: { changes: RulesFieldChange[]; label: string }) {
  return (
    <ul aria-label={label} className="space-y-2">
      {changes.map((change) => (
        <li key={change.field} className="rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
          <p className="font-bold">
            {labelOf(change.field)}{' '}
            <span className="font-mono text-xs font-normal text-violet-200">{change.field}</span>
          </p>
          <p className="break-words">
            <span className="sr-only">from </span>
            <del className="text-rose-200 decoration-rose-300/70">{describeValue(change.before)}</del>{' '}
            <span aria-hidden="true">→</span>
            <span className="sr-only"> to </span>{' '}
            <ins className="font-semibold text-emerald-200 no-underline">{describeValue(change.after)}</ins>
          </p>
          {change.added?.length ? (
            <p className="break-words text-xs text-emerald-200">Added: {describeValue(change.added)}</p>
          ) : null}
          {change.removed?.length ? (
            <p className="break-words text-xs text-rose-200">Removed: {describeValue(change.removed)}</p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
