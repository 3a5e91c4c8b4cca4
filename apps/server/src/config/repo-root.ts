import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: defaults for shipped files and relative paths in the environment resolve against it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
