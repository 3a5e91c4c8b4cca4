import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { RulesVersion } from '@manaboard/contract/admin';
import { ruleVersionsQueryOptions } from '../api/rules';
import { RetryButton } from './retry-button';

export const versionDate = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

/** The stored versions, newest first; each opens its changes from the version before it. */
export function RuleVersions() {
  const versions = useQuery(ruleVersionsQueryOptions());
  return (
    <section aria-labelledby="rule-versions-heading" className="space-y-3">
      <h2 id="rule-versions-heading" className="text-xl font-black">
        Versions
      </h2>
      {versions.isPending ? (
        <p role="status">Loading the versions…</p>
      ) : versions.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">The versions could not be loaded: {versions.error.message}</p>
          <RetryButton onRetry={() => void versions.refetch()} />
        </div>
      ) : versions.data.versions.length === 0 ? (
        <p className="text-violet-200">No versions are stored yet.</p>
      ) : (
        <>
          <ul aria-label="Versions of the rules, newest first" className="grid gap-2 md:grid-cols-2">
            {versions.data.versions.map((v) => (
              <VersionCard key={v.version} version={v} current={v.version === versions.data.current} />
            ))}
          </ul>
          {versions.data.total > versions.data.versions.length ? (
            <p className="text-xs text-violet-200">
              The {versions.data.versions.length} newest of {versions.data.total} versions.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function VersionCard({ version, current }: { version: RulesVersion; current: boolean }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-white/10 bg-dusk/70 p-3 text-sm">
      <div className="min-w-0 space-y-0.5">
        <p className="font-bold">
          Version {version.version}
          {current ? (
            <span className="ml-2 rounded-full bg-emerald-800 px-2 py-0.5 text-xs text-emerald-50">
              in force
            </span>
          ) : null}
        </p>
        <p className="break-words text-xs text-violet-200">
          <time dateTime={version.createdAt}>{versionDate.format(new Date(version.createdAt))} UTC</time> ·{' '}
          {version.actor ?? 'the rules file'} · {version.source}
        </p>
      </div>
      <Link
        to={`versions/${version.version}`}
        aria-label={`Changes in version ${version.version}`}
        className="rounded-full border border-white/20 px-3 py-1 text-xs font-semibold hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold"
      >
        Changes
      </Link>
    </li>
  );
}
