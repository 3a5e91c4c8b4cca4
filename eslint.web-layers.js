// The web app's import boundaries (bulletproof-react's rule, as import-x/no-restricted-paths zones), read by
// eslint.config.js. Features are listed from the folder at lint time, so a new feature is covered from its first
// file.
import fs from 'node:fs';
import path from 'node:path';

const WEB = 'apps/web/src';
const FEATURES = `${WEB}/features`;

/** The folders under apps/web/src/features, each one feature. */
export function webFeatures(root = import.meta.dirname) {
  return fs
    .readdirSync(path.join(root, FEATURES), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * A feature imports from components/, lib/, config/, networks/, test/ and the contract, and from itself; never
 * from another feature (what two share moves down; app/ composes them). Shared code imports no feature and no
 * route; nothing imports app/.
 */
export function webLayerZones(root = import.meta.dirname) {
  const shared = ['components', 'lib', 'config', 'networks', 'test'].map((dir) => `${WEB}/${dir}`);
  return [
    ...webFeatures(root).map((feature) => ({
      target: `${FEATURES}/${feature}`,
      from: FEATURES,
      except: [`./${feature}`],
      message: `A feature imports no other feature: move what both need to components/ or lib/, or let app/ pass it in.`,
    })),
    {
      target: [FEATURES, ...shared],
      from: `${WEB}/app`,
      message: 'Only app/ composes the app: nothing imports it.',
    },
    {
      target: shared,
      from: FEATURES,
      message: 'Shared code (components/, lib/, config/, networks/, test/) imports no feature.',
    },
  ];
}
