import { useId } from 'react';
import { ruleFieldsets, type RuleField, type RulesForm } from './rule-fields';

const input =
  'w-full rounded-xl border border-white/15 bg-black/45 px-3 py-2 text-base text-white focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft aria-[invalid=true]:border-rose-300';

/**
 * Every rule, grouped in fieldsets with a legend and help, each control labelled and tied (aria-describedby) to
 * its help and to the problems the server's preview found in it.
 */
export function RulesFields({
  form,
  onChange,
  errors,
}: {
  form: RulesForm;
  onChange: (path: string, value: string) => void;
  errors: Record<string, string[]>;
}) {
  const base = useId();
  return (
    <>
      {ruleFieldsets.map((set, i) => (
        <fieldset
          key={set.legend}
          aria-describedby={`${base}-set-${i}`}
          className="space-y-4 rounded-2xl border border-white/10 bg-dusk/40 p-4"
        >
          <legend className="px-1 text-lg font-black">{set.legend}</legend>
          <p id={`${base}-set-${i}`} className="text-sm text-violet-200">
            {set.help}
          </p>
          <div className="grid gap-4 sm:grid-cols-2">
            {set.fields.map((field) => (
              <RuleInput
                key={field.path}
                id={`${base}-${field.path}`}
                field={field}
                value={form[field.path] ?? ''}
                onChange={(value) => onChange(field.path, value)}
                problems={errors[field.path] ?? []}
              />
            ))}
          </div>
        </fieldset>
      ))}
    </>
  );
}

function RuleInput({
  id,
  field,
  value,
  onChange,
  problems,
}: {
  id: string;
  field: RuleField;
  value: string;
  onChange: (value: string) => void;
  problems: string[];
}) {
  const common = {
    id,
    name: field.path,
    value,
    'aria-invalid': problems.length > 0 ? true : undefined,
    'aria-describedby': `${id}-help ${id}-problem`,
    className: input,
  };
  return (
    <div className={`space-y-1 ${field.kind === 'list' ? 'sm:col-span-2' : ''}`}>
      <label htmlFor={id} className="block text-sm font-bold">
        {field.label}
      </label>
      {field.kind === 'list' ? (
        <textarea {...common} rows={3} spellCheck={false} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input
          {...common}
          type="number"
          inputMode="numeric"
          step={1}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <p id={`${id}-help`} className="text-xs text-violet-200">
        {field.help}
      </p>
      <p id={`${id}-problem`} className="text-xs font-semibold text-rose-200 empty:hidden">
        {problems.join(' ')}
      </p>
    </div>
  );
}
