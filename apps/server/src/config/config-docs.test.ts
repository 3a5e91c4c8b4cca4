import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configVariableNames, paths } from './config';

const read = (file: string) => fs.readFileSync(path.join(paths.repoRoot, file), 'utf8');

describe('configuration docs', () => {
  it.each(['.env.example', 'docs/configuration.md'])('%s names every variable the server reads', (file) => {
    const text = read(file);
    const missing = configVariableNames.filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
    expect(missing).toEqual([]);
  });

  it('documents no variable the server does not read', () => {
    const documented = [...read('docs/configuration.md').matchAll(/^\| `([A-Z0-9_]+)`/gm)].map((m) => m[1]);
    expect(documented.filter((name) => !configVariableNames.includes(name ?? ''))).toEqual([]);
    expect(documented.length).toBeGreaterThan(10);
  });
});
