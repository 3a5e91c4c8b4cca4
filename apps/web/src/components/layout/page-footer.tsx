/** The footer (SPEC §1); the social, e-mail and chat links come with branding. */
export function PageFooter() {
  return (
    <footer className="border-t border-white/10 px-4 py-6 text-center text-sm text-violet-200/70">
      © 2025 Manaboard. Open source, self-hosted, every point of Mana explained.
    </footer>
  );
}
