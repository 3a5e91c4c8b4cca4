/** The Mana Leaderboard panel (SPEC §2): Ranks and Posts tabs. Built out by the leaderboard issue. */
export function LeaderboardPanel() {
  return (
    <section aria-labelledby="leaderboard-title" className="mt-10">
      <h2 id="leaderboard-title" className="text-2xl font-extrabold text-white">
        Mana Leaderboard
      </h2>
    </section>
  );
}
