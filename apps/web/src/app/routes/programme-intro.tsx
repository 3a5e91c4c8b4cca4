/** What the programme is, in three steps: the wide-screen stand-in for the promo video (SPEC §2). */
export function ProgrammeIntro({ className = '' }: { className?: string }) {
  return (
    <section aria-labelledby="intro-title" className={className}>
      <div className="rounded-3xl border border-white/10 bg-dusk/50 p-10">
        <p className="text-sm font-semibold uppercase tracking-[0.2em] text-gold">Community rewards</p>
        <h2 id="intro-title" className="mt-3 text-5xl font-extrabold tracking-tight text-white">
          Earn Mana for every post the community loves.
        </h2>
        <p className="mt-4 max-w-2xl text-lg leading-relaxed text-violet-100/85">
          Link your social account, post about the community with the programme&apos;s keywords or tag the
          official accounts, and earn Mana for the likes, replies, reposts and quotes your posts receive.
        </p>
        <div className="mt-10 grid gap-4 lg:grid-cols-3">
          <Fact
            title="Post"
            text="Write about the community. Posts that use the keywords or tag the official accounts are tracked."
          />
          <Fact
            title="Engage"
            text="Likes, replies, reposts and quotes on your tracked posts turn into Mana, every day."
          />
          <Fact
            title="Climb"
            text="Weekly and all-time ranks, with every point of Mana explained line by line."
          />
        </div>
      </div>
    </section>
  );
}

function Fact({ title, text }: { title: string; text: string }) {
  return (
    <div className="rounded-2xl border border-white/10 bg-night/70 p-5">
      <h3 className="text-lg font-bold text-white">{title}</h3>
      <p className="mt-2 text-sm leading-relaxed text-violet-100/80">{text}</p>
    </div>
  );
}
