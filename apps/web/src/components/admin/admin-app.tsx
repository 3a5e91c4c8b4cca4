import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { isSessionEnded } from '../../lib/admin-api';
import { createQueryClient } from '../../lib/query-client';
import { ApiError } from '../../lib/api-error';
import {
  adminSessionKeys,
  adminSessionQueryOptions,
  signInErrorOf,
  signOutAdmin,
} from '../../lib/admin-session';
import { AdminShell, type AdminSectionEntry } from './admin-shell';
import { SignInScreen } from './sign-in-screen';

const ENDED = 'Your console session has ended. Sign in again.';

/**
 * The operator console at /admin, with its own query cache: whenever any call answers 401 (the session expired
 * or was ended), the session is asked again and the sign-in screen comes back saying why.
 */
export function AdminApp({ sections }: { sections: readonly AdminSectionEntry[] }) {
  const [notice, setNotice] = useState<string | null>(null);
  const [client] = useState(() => {
    // Built from the app's own factory: importing the cache classes here would pull query-core out of the main
    // chunk into a shared one, growing the main page's first load.
    const created = createQueryClient();
    created.setDefaultOptions({
      queries: {
        ...created.getDefaultOptions().queries,
        retry: (count, error) => !isSessionEnded(error) && count < 1,
      },
    });
    return created;
  });
  useEffect(() => {
    const ended = (error: unknown) => {
      if (!isSessionEnded(error)) return;
      setNotice(ENDED);
      void client.invalidateQueries({ queryKey: adminSessionKeys.session });
    };
    const stopQueries = client.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'error') return;
      if (event.query.queryKey[1] !== 'session') ended(event.action.error);
    });
    const stopMutations = client.getMutationCache().subscribe((event) => {
      if (event.type === 'updated' && event.action.type === 'error') ended(event.action.error);
    });
    return () => {
      stopQueries();
      stopMutations();
    };
  }, [client]);
  return (
    <QueryClientProvider client={client}>
      <SessionGate sections={sections} notice={notice} onSignedOut={() => setNotice('You are signed out.')} />
    </QueryClientProvider>
  );
}

function SessionGate({
  sections,
  notice,
  onSignedOut,
}: {
  sections: readonly AdminSectionEntry[];
  notice: string | null;
  onSignedOut: () => void;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useQuery(adminSessionQueryOptions());
  const signOut = useMutation({
    mutationFn: signOutAdmin,
    onSettled: () => {
      onSignedOut();
      session.refetch().catch(() => undefined);
      void navigate('/admin', { replace: true });
    },
  });
  if (session.isPending) {
    return (
      <p role="status" className="min-h-screen bg-night p-6 text-violet-100">
        Loading the console…
      </p>
    );
  }
  if (session.isError) {
    const error = session.error;
    if (error instanceof ApiError && error.status === 403) {
      return <NotAdmin message={error.message} onSignOut={() => signOut.mutate()} />;
    }
    if (!isSessionEnded(error)) {
      return (
        <div role="alert" className="min-h-screen space-y-4 bg-night p-6 text-white">
          <p>{error.message}</p>
          <button
            type="button"
            onClick={() => void session.refetch()}
            className="rounded-full bg-violet-700 px-5 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-gold"
          >
            Retry
          </button>
        </div>
      );
    }
    return <SignInScreen notice={notice ?? signInErrorOf(location.search)} />;
  }
  const first = sections[0];
  return (
    <AdminShell
      admin={session.data.admin}
      sections={sections}
      onSignOut={() => signOut.mutate()}
      signingOut={signOut.isPending}
    >
      <Routes>
        {sections.map(({ path, Component }) => (
          <Route key={path} path={`${path}/*`} element={<Component />} />
        ))}
        <Route path="*" element={first ? <RedirectTo path={`/admin/${first.path}`} /> : null} />
      </Routes>
    </AdminShell>
  );
}

/**
 * Replaces the location with `path` (React Router's Navigate, written with the hook the main page already loads:
 * Navigate's own code would otherwise join the main page's first load, for the console alone).
 */
function RedirectTo({ path }: { path: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    void navigate(path, { replace: true });
  }, [navigate, path]);
  return null;
}

function NotAdmin({ message, onSignOut }: { message: string; onSignOut: () => void }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 bg-night p-6 text-center text-white">
      <h1 className="text-2xl font-black">Operator console</h1>
      <p role="alert">{message}</p>
      <button
        type="button"
        onClick={onSignOut}
        className="rounded-full bg-violet-700 px-5 py-2 font-semibold focus-visible:outline-2 focus-visible:outline-gold"
      >
        Sign out
      </button>
    </main>
  );
}
