import { Link } from 'react-router';

/** Any other path: the server answers 404 with the app, which says so. */
export function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center">
      <h1 className="text-3xl font-bold text-white">Page not found</h1>
      <p className="text-violet-200">There is nothing at this address.</p>
      <Link
        to="/"
        className="rounded-full bg-violet-700 px-5 py-2 font-semibold text-white hover:bg-violet-600"
      >
        Back to the leaderboard
      </Link>
    </main>
  );
}
