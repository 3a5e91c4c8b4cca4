import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildIfNeeded, serverDir } from '../scripts/build.mjs';

/** The built server's JavaScript files (what `npm start` runs), by name. */
function bundle(): Map<string, string> {
  const dist = path.join(serverDir, 'dist');
  return new Map(
    fs
      .readdirSync(dist)
      .filter((name) => name.endsWith('.js'))
      .map((name) => [name, fs.readFileSync(path.join(dist, name), 'utf8')]),
  );
}

// What the server's bundle holds is memory for as long as the process runs: V8 keeps every loaded script's source
// (issue 33, docs/benchmarks.md "The server's bundle, smaller").
describe("the server's bundle (scripts/build.mjs)", () => {
  let files: Map<string, string>;
  beforeAll(async () => {
    await buildIfNeeded(['server'], () => {});
    files = bundle();
  }, 300_000);

  it("is minified: none of esbuild's per-module path comments", () => {
    for (const [name, text] of files) {
      expect(text, name).not.toMatch(/^\/\/ (apps|packages|node_modules)\//m);
    }
  });

  it('is ASCII only: Node keeps a source with any other character as two bytes a character', () => {
    for (const [name, text] of files) expect(text.match(/[^\0-\x7f]/)?.[0], name).toBeUndefined();
  });

  it('keeps the names of classes and functions (logs and errors name them)', () => {
    const all = [...files.values()].join('\n');
    expect(all).toMatch(/\bStoredReads\s*=\s*class\b|class StoredReads\b/);
    expect(all).toMatch(/function buildApp\s*\(/);
  });

  it('holds only the undici of the Node it runs on; the other majors @atproto-labs/fetch-node names are stubs', () => {
    const major = Number((process.versions.undici ?? '').split('.')[0]);
    const all = [...files.values()].join('\n');
    for (const other of [6, 7, 8].filter((m) => m !== major)) {
      expect(all).toContain(`undici_v${other} is not bundled`);
    }
    expect(all).not.toContain(`undici_v${major} is not bundled`);
    // undici's own Agent class is in the bundle once (as `var Agent<n>=class extends DispatcherBase`: the bundle
    // numbers names that several packages share).
    expect(all.match(/\bAgent\d*=class extends DispatcherBase\b/g) ?? []).toHaveLength(1);
  });
});
