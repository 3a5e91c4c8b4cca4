import { useQuery } from '@tanstack/react-query';
import { Route, Routes } from 'react-router';
import { adminRulesQueryOptions } from '../api/rules';
import { RetryButton } from './retry-button';
import { RulesEditor } from './rules-editor';
import { RuleVersions } from './rule-versions';
import { VersionDiff } from './version-diff';

/** Section 2 of the console: the rules form with its live preview and the versions; each version's diff. */
export function RulesSection() {
  return (
    <Routes>
      <Route index element={<RulesScreen />} />
      <Route path="versions/:version" element={<VersionDiff />} />
    </Routes>
  );
}

function RulesScreen() {
  const rules = useQuery(adminRulesQueryOptions());
  return (
    <div className="space-y-8">
      <section aria-labelledby="rules-heading" className="space-y-4">
        <div className="space-y-1">
          <h1 id="rules-heading" className="text-2xl font-black">
            Programme rules
          </h1>
          <p className="max-w-prose text-sm text-violet-200">
            {rules.data ? `Version ${rules.data.version} is in force. ` : ''}
            Each save makes a new version; Mana that is already final is never rewritten.
          </p>
        </div>
        {rules.isPending ? (
          <p role="status">Loading the rules…</p>
        ) : rules.isError ? (
          <div role="alert" className="space-y-2">
            <p className="text-rose-200">The rules could not be loaded: {rules.error.message}</p>
            <RetryButton onRetry={() => void rules.refetch()} />
          </div>
        ) : (
          <RulesEditor version={rules.data.version} rules={rules.data.rules} />
        )}
      </section>
      <RuleVersions />
    </div>
  );
}
