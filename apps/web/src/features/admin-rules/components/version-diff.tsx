import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ruleDiffQueryOptions } from '../api/rules';
import { ChangeList } from './change-list';
import { RetryButton } from './retry-button';

/** `/admin/rules/versions/:version`: what a version changed against the one before it. */
export function VersionDiff() {
  const version = Number(useParams().version);
  const valid = Number.isInteger(version) && version >= 1;
  const diff = useQuery({ ...ruleDiffQueryOptions(version), enabled: valid });
  return (
    <section aria-labelledby="version-diff-heading" className="space-y-4">
      <p>
        <Link
          to="/admin/rules"
          className="text-sm text-violet-200 underline underline-offset-4 hover:text-white focus-visible:outline-2 focus-visible:outline-gold"
        >
          ← Programme rules
        </Link>
      </p>
      <h1 id="version-diff-heading" className="text-2xl font-black">
        Version {valid ? version : '?'} of the rules
      </h1>
      {!valid ? (
        <p role="alert">There is no such version.</p>
      ) : diff.isPending ? (
        <p role="status">Loading the changes…</p>
      ) : diff.isError ? (
        <div role="alert" className="space-y-2">
          <p className="text-rose-200">{diff.error.message}</p>
          <RetryButton onRetry={() => void diff.refetch()} />
        </div>
      ) : diff.data.previousVersion === null ? (
        <p className="text-violet-200">The first version: there is nothing before it to compare with.</p>
      ) : diff.data.changes.length === 0 ? (
        <p className="text-violet-200">No field changed against version {diff.data.previousVersion}.</p>
      ) : (
        <>
          <p className="text-sm text-violet-200">
            {diff.data.changes.length} {diff.data.changes.length === 1 ? 'field' : 'fields'} changed against
            version {diff.data.previousVersion}.
          </p>
          <ChangeList
            changes={diff.data.changes}
            label={`Changes from version ${diff.data.previousVersion} to ${version}`}
          />
        </>
      )}
    </section>
  );
}
