import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The repository's own ESLint configuration, run on code placed (virtually: lintText's filePath, no file is
// written) where a crossing would be; the imported files are real, so the resolver finds them as it does in a lint.
const repoRoot = path.resolve(import.meta.dirname, '../../../..');
const eslint = new ESLint({ cwd: repoRoot });
// A lint resolves and parses the files imported (and theirs, for the circle check): seconds on a busy machine.
const LINT_MS = 120_000;

async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === 'import-x/no-cycle')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the web layers lint rule (issue 24)', () => {
  it(
    'rejects a feature importing another feature: static, type-only, re-exported and dynamic',
    async () => {
      const file = 'apps/web/src/features/leaderboard/components/boundary-fixture.tsx';
      const crossings = [
        "import { useBreakdownDialog } from '../../breakdown/components/use-breakdown-dialog';\nuseBreakdownDialog();\n",
        "import type { MainPageModals } from '../../../app/use-main-page-modals';\nexport type M = MainPageModals;\n",
        "export { ManaCard } from '../../mana-card/components/mana-card';\n",
        "export const load = () => import('../../faq/components/faq-modal');\n",
      ];
      for (const code of crossings) {
        const errors = await boundaryErrors(file, code);
        expect(errors, code).toHaveLength(1);
        expect(errors[0]).toMatch(/^import-x\/no-restricted-paths: /);
      }
    },
    LINT_MS,
  );

  it(
    "allows a feature's own files, the shared layers and the contract",
    async () => {
      const code = [
        "import { displayHandle } from '@manaboard/contract';",
        "import { RankRow } from './rank-row';",
        "import { formatMana } from '../../../lib/format-mana';",
        "import { Modal } from '../../../components/ui/modal';",
        "import { networkWeb } from '../../../networks/networks';",
        "import { LEADERBOARD_PAGE_SIZE } from '../../../config/constants';",
        'export const used = [displayHandle, RankRow, formatMana, Modal, networkWeb, LEADERBOARD_PAGE_SIZE];',
      ].join('\n');
      expect(
        await boundaryErrors('apps/web/src/features/leaderboard/components/boundary-fixture.tsx', code),
      ).toEqual([]);
    },
    LINT_MS,
  );

  it(
    'rejects shared code importing a feature, and anything importing a route',
    async () => {
      const fromLib = "export { useAuthors } from '../features/leaderboard/api/get-authors';\n";
      expect(await boundaryErrors('apps/web/src/lib/boundary-fixture.ts', fromLib)).toHaveLength(1);
      const fromComponents = "export { MainPage } from '../../app/routes/main-page';\n";
      expect(
        await boundaryErrors('apps/web/src/components/ui/boundary-fixture.ts', fromComponents),
      ).toHaveLength(1);
      // app/ composes features: allowed.
      const fromApp =
        "export { LeaderboardPanel } from '../features/leaderboard/components/leaderboard-panel';\n";
      expect(await boundaryErrors('apps/web/src/app/boundary-fixture.ts', fromApp)).toEqual([]);
    },
    LINT_MS,
  );

  it(
    'rejects an import circle',
    async () => {
      // networks.ts imports the Bluesky form; a form importing the list back closes a circle.
      const code = "import { NETWORKS } from '../networks';\nexport const all = NETWORKS;\n";
      const errors = await boundaryErrors('apps/web/src/networks/bluesky/bluesky-handle-form.tsx', code);
      expect(errors.some((e) => e.startsWith('import-x/no-cycle: '))).toBe(true);
    },
    LINT_MS,
  );
});
