import type { AdminLedgerEdition } from '@manaboard/contract/admin';
import { Publication } from './publication';
import { link, moment, number } from './styles';

const size = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** One edition of a closed week: who made it and why, its hash and size, its board, and its publication. */
export function EditionCard({
  edition,
  automatic,
  account,
}: {
  edition: AdminLedgerEdition;
  automatic: boolean;
  account: string;
}) {
  return (
    <li className="space-y-3 rounded-lg border border-white/10 bg-black/30 p-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-bold">
          Edition {edition.edition}
          {edition.edition > 1 ? (
            <span className="ml-2 text-sm font-normal text-gold">correction</span>
          ) : null}
        </h3>
        <a className={`${link} text-sm`} href={edition.url}>
          Download ({size(edition.byteLength)})
        </a>
      </div>
      <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-violet-200">Made</dt>
        <dd>
          {moment.format(new Date(edition.createdAt))} UTC by {edition.createdBy}
          {edition.reason ? ` — ${edition.reason}` : ''}
        </dd>
        <dt className="text-violet-200">Board</dt>
        <dd>
          {number.format(edition.members)} {edition.members === 1 ? 'member' : 'members'},{' '}
          {number.format(edition.mana)} Mana
        </dd>
        <dt className="text-violet-200">Hash</dt>
        <dd className="break-all font-mono text-xs leading-5">{edition.sha256}</dd>
      </dl>
      <Publication edition={edition} automatic={automatic} account={account} />
    </li>
  );
}
