import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProgrammeRulesView, RulesSaveResponse } from '@manaboard/contract/admin';
import { ConfirmDialog, type ConfirmRequest } from '../../../components/ui/confirm-dialog';
import { adminRulesKeys, rulesPreviewQueryOptions, saveRules } from '../api/rules';
import { useDebounced } from '../hooks/use-debounced';
import { toDraft, toForm, type RulesForm } from './rule-fields';
import { RulesFields } from './rules-fields';
import { RulesPreviewPanel } from './rules-preview-panel';

/** How long the form waits after the last keystroke before it asks for a preview. */
export const PREVIEW_DELAY_MS = 400;

type Saved = RulesSaveResponse['data'];

/**
 * The rules form, started from the version in force: each edit is previewed (debounced) by the server, whose
 * validation shows by the fields; Save asks first, then stores the next version.
 */
export function RulesEditor({ version, rules }: { version: number; rules: ProgrammeRulesView }) {
  const client = useQueryClient();
  const [form, setForm] = useState<RulesForm>(() => toForm(rules));
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [saved, setSaved] = useState<Saved | null>(null);
  const [notice, setNotice] = useState('');
  const body = JSON.stringify({ rules: toDraft(form) });
  const settled = useDebounced(body, PREVIEW_DELAY_MS);
  const preview = useQuery(rulesPreviewQueryOptions(settled));
  const current = settled === body && !preview.isPlaceholderData ? preview.data : undefined;
  const errors = preview.data?.validation.fieldErrors ?? {};
  const formErrors = preview.data?.validation.formErrors ?? [];

  const save = useMutation({
    mutationFn: () => saveRules(JSON.parse(body) as { rules: unknown }),
    onSuccess: async (response) => {
      setSaved(response.data);
      await client.invalidateQueries({ queryKey: adminRulesKeys.all });
    },
  });

  const submit = () => {
    setSaved(null);
    if (!current) return setNotice('The preview is still checking your last edit; try again in a moment.');
    if (!current.validation.valid) return setNotice('Please fix the fields marked above before saving.');
    if (current.changes.length === 0)
      return setNotice('Nothing to save: the draft equals the rules in force.');
    setNotice('');
    const count = current.changes.length;
    setConfirm({
      title: 'Save the programme rules?',
      body: `This makes version ${current.currentVersion + 1} of the rules (${count} ${
        count === 1 ? 'change' : 'changes'
      }); version ${current.currentVersion} stays in the history. Posts still within the refresh window are rescored with the new rules; Mana that is already final is not rewritten.`,
      confirmLabel: 'Save new version',
      onConfirm: () => save.mutate(),
    });
  };

  return (
    <div className="grid gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <form
        noValidate
        aria-label={`Programme rules, version ${version}`}
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {preview.data && preview.data.currentVersion !== version ? (
          <p role="alert" className="rounded-xl border border-gold/50 p-3 text-sm text-gold">
            Version {preview.data.currentVersion} is now in force (this form started from version {version});
            the preview compares your draft with it.
          </p>
        ) : null}
        <RulesFields
          form={form}
          onChange={(path, value) => setForm({ ...form, [path]: value })}
          errors={errors}
        />
        <div role="alert" className="space-y-1 text-sm font-semibold text-rose-200 empty:hidden">
          {formErrors.map((message) => (
            <p key={message}>{message}</p>
          ))}
          {save.error ? <p>The rules were not saved: {save.error.message}</p> : null}
        </div>
        <p role="status" className="text-sm empty:hidden">
          {saved
            ? saved.unchanged
              ? `Nothing changed: version ${saved.version} stays in force.`
              : `Saved as version ${saved.version}: it is in force now.`
            : notice}
        </p>
        <div className="flex flex-wrap gap-3">
          <button
            type="submit"
            disabled={save.isPending}
            className="rounded-full bg-violet-700 px-5 py-2 text-sm font-bold hover:bg-violet-600 disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            disabled={save.isPending}
            onClick={() => {
              setForm(toForm(rules));
              setSaved(null);
              setNotice('');
            }}
            className="rounded-full border border-white/20 px-5 py-2 text-sm font-semibold hover:bg-white/10 disabled:opacity-70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
          >
            Reset to version {version}
          </button>
        </div>
      </form>
      <div className="xl:sticky xl:top-4 xl:self-start">
        <RulesPreviewPanel
          preview={preview.data}
          updating={preview.isFetching || settled !== body}
          error={preview.isError ? preview.error : null}
          onRetry={() => void preview.refetch()}
        />
      </div>
      <ConfirmDialog request={confirm} onClose={() => setConfirm(null)} />
    </div>
  );
}
