import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AUTH_RETURN_REDIRECT_MS } from '../../config/constants';

/**
 * The auth-return screen of SPEC §2 (`/auth/callback`, `/linked`): a black overlay with a centred image fading
 * in over 1 s. An `error` is logged and the browser goes to `/`; otherwise it goes to `/` after 1.5 s. (The
 * account polling of SPEC §9 arrives with account linking.)
 */
export function AuthReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const error = params.get('error');

  useEffect(() => {
    if (error) {
      console.warn(`Account linking did not complete: ${error}`);
      void navigate('/', { replace: true });
      return undefined;
    }
    const timer = setTimeout(() => void navigate('/', { replace: true }), AUTH_RETURN_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [error, navigate]);

  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black"
      role="status"
      aria-live="polite"
    >
      <img
        src="/art/auth-return.svg"
        alt=""
        width={160}
        height={160}
        className="animate-fade-in-1s h-40 w-40"
      />
      <span className="sr-only">Linking your account…</span>
    </div>
  );
}
