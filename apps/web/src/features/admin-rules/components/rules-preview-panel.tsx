import type { NetworkQueryPreview, RulesPreviewResponse } from '@manaboard/contract/admin';
import { ChangeList } from './change-list';
import { RetryButton } from './retry-button';

type Preview = RulesPreviewResponse['data'];

const purposes: Record<NetworkQueryPreview['purpose'], string> = {
  programme: 'Search for tracked posts',
  officialPosts: "The official accounts' own posts",
};

/** What the draft would do: the changes against the rules in force, and the network queries with their length. */
export function RulesPreviewPanel({
  preview,
  updating,
  error,
  onRetry,
}: {
  preview: Preview | undefined;
  updating: boolean;
  error: Error | null;
  onRetry: () => void;
}) {
  return (
    <section aria-labelledby="rules-preview-heading" aria-busy={updating} className="space-y-4">
      <h2 id="rules-preview-heading" className="text-sm font-bold uppercase tracking-wide text-gold">
        Preview
      </h2>
      <p role="status" className="text-xs text-violet-200">
        {updating ? 'Checking the draft…' : preview ? 'Checked against the rules in force.' : ''}
      </p>
      {error ? (
        <div role="alert" className="space-y-2 text-sm">
          <p className="text-rose-200">The preview failed: {error.message}</p>
          <RetryButton onRetry={onRetry} />
        </div>
      ) : null}
      {preview ? (
        <>
          <div className="space-y-2">
            <h3 className="font-bold">Changes</h3>
            {preview.changes.length === 0 ? (
              <p className="text-sm text-violet-200">
                {preview.validation.valid
                  ? `No changes: this is version ${preview.currentVersion}, the rules in force.`
                  : 'Changes show once the draft is valid.'}
              </p>
            ) : (
              <ChangeList changes={preview.changes} label="Changes against the rules in force" />
            )}
          </div>
          <div className="space-y-2">
            <h3 className="font-bold">Network queries</h3>
            {preview.queries.length === 0 ? (
              <p className="text-sm text-violet-200">The queries show once the draft is valid.</p>
            ) : (
              <ul className="space-y-3" aria-label="Network queries">
                {preview.queries.map((query) => (
                  <QueryCard key={query.purpose} query={query} />
                ))}
              </ul>
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}

function QueryCard({ query }: { query: NetworkQueryPreview }) {
  const label = purposes[query.purpose];
  return (
    <li className="space-y-2 rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
      <p className="font-semibold">{label}</p>
      <pre className="overflow-x-auto whitespace-pre-wrap break-all rounded bg-black/40 p-2 font-mono text-xs">
        {query.text}
      </pre>
      {query.maxLength === null ? (
        <p className="text-xs text-violet-200">
          {query.length} characters; this network sets no length limit.
        </p>
      ) : (
        <div className="space-y-1">
          <meter
            aria-label={`${label}: length`}
            min={0}
            max={query.maxLength}
            low={Math.round(query.maxLength * 0.8)}
            high={query.maxLength}
            optimum={0}
            value={query.length}
            className="h-2 w-full"
          />
          <p className={`text-xs ${query.withinLimit ? 'text-violet-200' : 'font-semibold text-rose-200'}`}>
            {query.length} / {query.maxLength} characters
            {query.withinLimit ? '' : ' — over the network’s limit'}
          </p>
        </div>
      )}
    </li>
  );
}
