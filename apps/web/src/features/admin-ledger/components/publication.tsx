import type { AdminLedgerEdition } from '@manaboard/contract/admin';
import { useCopyText } from '../hooks/use-copy-text';
import { button, link, moment } from './styles';

/**
 * Where an edition's hash was posted, or why it is not yet: the worker's attempts and next try when it posts
 * automatically, and in every case until it is posted the exact text to post from the official account by hand.
 */
export function Publication({
  edition,
  automatic,
  account,
}: {
  edition: AdminLedgerEdition;
  automatic: boolean;
  account: string;
}) {
  const clipboard = useCopyText();
  const { published, publishing } = edition;
  if (published) {
    return (
      <p className="text-sm text-emerald-200">
        Published {moment.format(new Date(published.at))} UTC
        {published.url ? (
          <>
            {' '}
            —{' '}
            <a className={link} href={published.url} target="_blank" rel="noreferrer">
              see the post
            </a>
          </>
        ) : null}
        <span className="mt-1 block break-all font-mono text-xs text-violet-200">{published.uri}</span>
      </p>
    );
  }
  const textId = `ledger-text-${edition.edition}`;
  return (
    <div className="space-y-2">
      <p className="text-sm text-violet-100">
        {automatic
          ? publishing.error
            ? `Not published yet: attempt ${publishing.attempts} failed (${publishing.error}).` +
              (publishing.nextAt ? ` Next try ${moment.format(new Date(publishing.nextAt))} UTC.` : '')
            : `Not published yet: the worker posts it from @${account} at its next run.`
          : `Not published automatically on this programme: post this text from @${account} by hand.`}
      </p>
      <p className="text-xs font-bold uppercase tracking-wide text-violet-100" id={textId}>
        Text to post
      </p>
      <pre
        aria-labelledby={textId}
        className="whitespace-pre-wrap [overflow-wrap:anywhere] rounded-lg border border-white/10 bg-black/45 p-3 font-mono text-xs text-white"
      >
        {edition.text}
      </pre>
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="button"
          className={button}
          onClick={() => clipboard.copy(edition.text)}
          aria-label={`${clipboard.copied ? 'Copied' : 'Copy'} text of edition ${edition.edition}`}
        >
          {clipboard.copied ? 'Copied' : 'Copy text'}
        </button>
        <span role="status" className="text-sm text-rose-200 empty:hidden">
          {clipboard.failed ? 'Failed to copy to clipboard' : ''}
        </span>
      </div>
    </div>
  );
}
