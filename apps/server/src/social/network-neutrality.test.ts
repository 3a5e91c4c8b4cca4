import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { paths } from '../config/config';
import { namesNetwork, namingsIn, sourceFiles } from './network-neutrality';

/**
 * The folders that must not name a network (issue 12): the engine, the API, the contract, the web's features and
 * the shared web code they read (lib/, where what several features need moved in issue 24).
 */
const NEUTRAL = [
  'apps/server/src/jobs',
  'apps/server/src/modules',
  'packages/contract/src',
  'apps/web/src/features',
  'apps/web/src/lib',
];

/**
 * The only files there that may, and why. The network configuration: the contract's list of networks. The
 * brand's own profile link: a default the operator replaces, not a network the programme runs on.
 */
const ALLOWED = new Set(['packages/contract/src/networks.ts', 'packages/contract/src/branding.ts']);

describe('nothing outside the adapters and the network configuration names a network', () => {
  it('holds for every source file in the neutral folders', () => {
    const files = NEUTRAL.flatMap((dir) => sourceFiles(path.join(paths.repoRoot, dir)));
    expect(files.length).toBeGreaterThan(100);
    const found = files
      .map((file) => path.relative(paths.repoRoot, file))
      .filter((file) => !ALLOWED.has(file))
      .flatMap((file) => namingsIn(file, fs.readFileSync(path.join(paths.repoRoot, file), 'utf8')))
      .map((n) => `${n.file}:${n.line} ${n.text}`);
    expect(found).toEqual([]);
  });

  it('catches each kind of naming, in code only', () => {
    const sample = [
      "import { createXClient } from '../../integrations/x/x-client';",
      "import type { World } from '@manaboard/x-sim';",
      'const row = { x_user_id: 1, xCreatedAt: 2 };',
      "if (network === 'x') window.location.assign(`https://bsky.app/profile/${h}`);",
      "const path = '/auth/twitter/start';",
      '// Comments may explain X, twitter and bluesky facts.',
      "const header = request.headers['x-user-id']; const cls = 'inset-x-0 -translate-x-1/2';",
      'const xs = [1]; const max = 2; const X = 3;',
      'const post = /https:\\/\\/x\\.com\\/\\w+/; const url = `${base}/${id}/bsky/${rkey}`;',
    ].join('\n');
    expect(namingsIn('sample.ts', sample).map((n) => [n.line, n.text])).toEqual([
      [1, 'createXClient'],
      [1, '../../integrations/x/x-client'],
      [2, '@manaboard/x-sim'],
      [3, 'x_user_id'],
      [3, 'xCreatedAt'],
      [4, 'x'],
      [4, 'https://bsky.app/profile/'],
      [5, '/auth/twitter/start'],
      [9, '/https:\\/\\/x\\.com\\/\\w+/'],
      [9, '/bsky/'],
    ]);
  });

  it('reads the text a component shows', () => {
    const tsx = [
      'export const A = () => <p>Link your X account</p>;',
      'export const B = () => <button aria-label="Close">X</button>;',
      'export const C = () => <p>Follow us on Bluesky, max 3 x 4</p>;',
    ].join('\n');
    expect(namingsIn('sample.tsx', tsx).map((n) => [n.line, n.text])).toEqual([
      [1, 'Link your X account'],
      [3, 'Follow us on Bluesky, max 3 x 4'],
    ]);
  });

  it('reads identifiers by their spelling, not their letters', () => {
    const named = [
      'XEmbed',
      'createXClient',
      'realX',
      'X_WIDGETS_SRC',
      'xUserId',
      'x_user_id',
      'twttr',
      'tweetId',
    ];
    for (const name of [...named, 'bskyAgent', 'BlueskyLinking'])
      expect(namesNetwork('identifier', name), name).toBe(true);
    // SPEC's API field `retweets` stays; x and X alone are coordinates and close buttons, not the network.
    for (const name of ['x', 'X', 'xs', 'max', 'index', 'Xyz', 'axis', 'XMLHttpRequest', 'retweets'])
      expect(namesNetwork('identifier', name), name).toBe(false);
  });
});
