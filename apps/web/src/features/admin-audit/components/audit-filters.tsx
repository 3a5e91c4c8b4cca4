import { useId, useState } from 'react';
import type { AuditFilters } from '../api/audit';

const input =
  'w-full rounded-lg border border-white/15 bg-black/45 px-3 py-1.5 text-sm text-white placeholder:text-violet-200/60 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft';

const fields: { name: keyof AuditFilters; label: string; type: 'text' | 'date'; placeholder?: string }[] = [
  { name: 'actor', label: 'Who', type: 'text', placeholder: 'handle or id' },
  { name: 'action', label: 'Action', type: 'text', placeholder: 'announcement' },
  { name: 'subject', label: 'Subject', type: 'text', placeholder: 'exact id' },
  { name: 'from', label: 'From (UTC)', type: 'date' },
  { name: 'to', label: 'To (UTC)', type: 'date' },
];

/** The audit log's filters: applied on submit (Enter or the button), cleared with Reset. */
export function AuditFiltersForm({
  value,
  onApply,
}: {
  value: AuditFilters;
  onApply: (f: AuditFilters) => void;
}) {
  const [draft, setDraft] = useState(value);
  const id = useId();
  return (
    <form
      aria-label="Filter the audit log"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6 lg:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(draft);
      }}
    >
      {fields.map((field) => (
        <div key={field.name} className="space-y-1">
          <label
            htmlFor={`${id}-${field.name}`}
            className="block text-xs font-bold uppercase tracking-wide text-violet-100"
          >
            {field.label}
          </label>
          <input
            id={`${id}-${field.name}`}
            name={field.name}
            type={field.type}
            value={draft[field.name]}
            placeholder={field.placeholder}
            onChange={(event) => setDraft({ ...draft, [field.name]: event.target.value })}
            className={input}
          />
        </div>
      ))}
      <div className="flex gap-2">
        <button
          type="submit"
          className="rounded-full bg-violet-700 px-4 py-1.5 text-sm font-bold hover:bg-violet-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          Apply
        </button>
        <button
          type="button"
          onClick={() => {
            const empty = { actor: '', action: '', subject: '', from: '', to: '' };
            setDraft(empty);
            onApply(empty);
          }}
          className="rounded-full border border-white/20 px-4 py-1.5 text-sm font-semibold hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
        >
          Reset
        </button>
      </div>
    </form>
  );
}
