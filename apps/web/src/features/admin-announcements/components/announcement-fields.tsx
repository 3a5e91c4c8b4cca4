import { useId } from 'react';

export type Draft = { title: string; content: string; url: string };

const input =
  'w-full rounded-xl border border-white/15 bg-black/45 px-3 py-2 text-base text-white placeholder:text-violet-200/60 focus-visible:border-mana-soft focus-visible:outline-2 focus-visible:outline-mana-soft aria-[invalid=true]:border-rose-300';

/** The editable fields, each labelled, with its problem shown under it and tied to it (aria-describedby). */
export function AnnouncementFields({
  draft,
  onChange,
  problems,
}: {
  draft: Draft;
  onChange: (draft: Draft) => void;
  problems: Partial<Record<keyof Draft, string>>;
}) {
  const ids = { title: useId(), content: useId(), url: useId() };
  const field = (name: keyof Draft, label: string, hint: string, multiline = false) => {
    const problemId = `${ids[name]}-problem`;
    const hintId = `${ids[name]}-hint`;
    const common = {
      id: ids[name],
      name,
      value: draft[name],
      'aria-invalid': problems[name] ? true : undefined,
      'aria-describedby': `${hintId} ${problemId}`,
      className: input,
    };
    return (
      <div className="space-y-1">
        <label htmlFor={ids[name]} className="block text-sm font-bold">
          {label}
        </label>
        {multiline ? (
          <textarea {...common} rows={8} onChange={(e) => onChange({ ...draft, [name]: e.target.value })} />
        ) : (
          <input
            {...common}
            type={name === 'url' ? 'url' : 'text'}
            onChange={(e) => onChange({ ...draft, [name]: e.target.value })}
          />
        )}
        <p id={hintId} className="text-xs text-violet-200">
          {hint}
        </p>
        <p id={problemId} className="min-h-[1rem] text-xs font-semibold text-rose-200">
          {problems[name]}
        </p>
      </div>
    );
  };
  return (
    <>
      {field('title', 'Title', 'Up to 200 characters.')}
      {field('content', 'Text', 'Up to 5,000 characters; line breaks are kept.', true)}
      {field('url', 'Learn More link (optional)', 'An http(s) address readers can open.')}
    </>
  );
}
