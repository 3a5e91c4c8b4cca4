import type { RewardsExportRow } from '@manaboard/contract/admin';

const n = (x: number) => x.toLocaleString('en-US');
const columns = ['Rank', 'Handle', 'Network user id', 'Mana', 'Posts', 'Referrals'] as const;

/** The export's rows: a table from 768 px, cards on phones. */
export function ExportTable({ rows, caption }: { rows: RewardsExportRow[]; caption: string }) {
  return (
    <>
      <ol className="space-y-2 md:hidden" aria-label={caption}>
        {rows.map((row) => (
          <li key={row.networkUserId} className="rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
            <p className="flex items-baseline justify-between gap-2">
              <span className="break-all font-bold">
                <span className="text-gold">#{row.rank}</span> @{row.handle}
              </span>
              <span className="whitespace-nowrap font-bold">{n(row.mana)} Mana</span>
            </p>
            <p className="break-all font-mono text-xs text-violet-200">{row.networkUserId}</p>
            <p className="text-xs text-violet-100">
              {n(row.posts)} posts · {n(row.referrals)} referrals
            </p>
          </li>
        ))}
      </ol>
      <div className="hidden overflow-x-auto rounded-xl border border-white/10 md:block">
        <table className="w-full min-w-[640px] text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-dusk/80 text-xs uppercase tracking-wide text-violet-100">
            <tr>
              {columns.map((c) => (
                <th
                  key={c}
                  scope="col"
                  className={`px-3 py-2 ${c === 'Handle' || c === 'Network user id' ? '' : 'text-right'}`}
                >
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.networkUserId} className="border-t border-white/10">
                <td className="px-3 py-2 text-right font-bold text-gold">{row.rank}</td>
                <th scope="row" className="break-all px-3 py-2 font-semibold">
                  @{row.handle}
                </th>
                <td className="break-all px-3 py-2 font-mono text-xs">{row.networkUserId}</td>
                <td className="px-3 py-2 text-right font-bold">{n(row.mana)}</td>
                <td className="px-3 py-2 text-right">{n(row.posts)}</td>
                <td className="px-3 py-2 text-right">{n(row.referrals)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
