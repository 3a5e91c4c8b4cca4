import { Suspense } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useNavigate } from 'react-router';
import { ReloadFallback } from '../../../components/ui/reload-fallback';
import type { BreakdownOpener } from '../../../lib/breakdown-target';
import type { AccountState } from '../../../lib/account';
import type { HandleFormState } from '../hooks/use-link-account';
import { clearPendingReferrer, usePendingReferrer } from '../../../lib/pending-referrer';
import { CardFrame } from './card-frame';
import { LazyLinkedCard } from './lazy-linked-card';
import { UnlinkedCard } from './unlinked-card';

type ManaCardProps = {
  account: AccountState;
  onLink: () => void;
  linking: boolean;
  /** The open handle form (networks whose sign-in starts from a handle), or null. */
  handleForm?: HandleFormState | null;
  /** Opens the Mana breakdown behind a linked member's total (the page's one dialog). */
  breakdown: BreakdownOpener;
};

/** The personal mana card of SPEC §2: linked or not, as the account state says (SPEC §4). */
export function ManaCard({ account, onLink, linking, handleForm = null, breakdown }: ManaCardProps) {
  const pendingReferrer = usePendingReferrer();
  const navigate = useNavigate();
  const loadingCard = (
    <CardFrame label="Mana card" busy>
      <p className="m-auto text-sm text-violet-200/80">Loading your card…</p>
    </CardFrame>
  );
  if (account.isLoading) return loadingCard;
  if (!account.connected || !account.handle) {
    return (
      <UnlinkedCard
        pendingReferrer={pendingReferrer}
        linking={linking}
        onLink={onLink}
        handleForm={handleForm}
        onCancelReferral={() => {
          clearPendingReferrer();
          void navigate('/', { replace: true });
        }}
      />
    );
  }
  return (
    <ErrorBoundary
      fallback={
        <CardFrame label="Mana card">
          <ReloadFallback message="Your card could not be loaded." className="m-auto" />
        </CardFrame>
      }
    >
      <Suspense fallback={loadingCard}>
        <LazyLinkedCard handle={account.handle} avatarUrl={account.avatarUrl} breakdown={breakdown} />
      </Suspense>
    </ErrorBoundary>
  );
}
