import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules, SourceMap, type SourceMapPayload } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { reservePort } from '../apps/server/src/test/free-port';
import { migratedPgliteDataDir } from '../apps/server/src/test/pglite-template';
import { buildHash, buildIfNeeded, repoRoot, serverDir } from '../scripts/build.mjs';
import { serverEnv } from './support/server';

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

  it("is built again by a Node with another undici: the bundle holds the building Node's own", () => {
    const running = process.versions;
    const major = Number((running.undici ?? '').split('.')[0]);
    expect(major).toBeGreaterThan(0);
    const other = { ...running, undici: `${major + 1}.0.0` };
    expect(buildHash('server', other)).not.toBe(buildHash('server'));
    expect(buildHash('server', { ...running, undici: `${major}.99.0` })).toBe(buildHash('server'));
    expect(buildHash('web', other)).toBe(buildHash('web'));
  });

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

  it('holds one copy of each version of a package, however many npm installed (zod 3 and ajv: issue 33)', () => {
    const dist = path.join(serverDir, 'dist');
    const lock = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    // Each bundled package's directory (node_modules/…/node_modules/<name>), from every chunk's whole map.
    const dirs = new Set<string>();
    for (const name of files.keys()) {
      const map = JSON.parse(fs.readFileSync(path.join(dist, `${name}.full.map`), 'utf8')) as {
        sources: string[];
      };
      for (const source of map.sources) {
        const dir = /^(?:\.\.\/)*(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
        if (dir) dirs.add(dir);
      }
    }
    const byVersion = new Map<string, string[]>();
    for (const dir of dirs) {
      const key = `${dir.replace(/.*node_modules\//, '')}@${lock.packages[dir]?.version ?? '?'}`;
      byVersion.set(key, [...(byVersion.get(key) ?? []), dir]);
    }
    expect([...byVersion].filter(([, copies]) => copies.length > 1)).toEqual([]);
    // The check reads what it should: zod 3 (the @atproto packages') and zod 4 (ours) are both there, once each.
    expect([...byVersion.keys()].filter((key) => key.startsWith('zod@')).sort()).toEqual([
      expect.stringMatching(/^zod@3\./),
      expect.stringMatching(/^zod@4\./),
    ]);
  });

  it("holds undici's Agent alone, which Node's fetch dispatches through: a name is checked as it resolves", async () => {
    const [name, text] =
      [...files].find(([, code]) => /\bAgent\d*=class extends DispatcherBase\b/.test(code)) ?? [];
    if (!name || !text) throw new Error("no chunk holds undici's Agent");
    // Not undici's index: none of its fetch, WebSocket or cache (6 MB of heap where the Agent takes 2.4, issue 33).
    expect(text).not.toMatch(/\b(WebSocket|EventSource|CacheStorage)\d*=class\b/);
    const chunk = (await import(pathToFileURL(path.join(serverDir, 'dist', name)).href)) as {
      safeFetchWrap: (options: { ssrfProtection: boolean }) => typeof fetch;
    };
    const guarded = chunk.safeFetchWrap({ ssrfProtection: true });
    // A name that passes every check before a connection, refused by the Agent's own lookup as it connects.
    const error = await guarded('https://pds.example.test/xrpc/com.atproto.repo.listRecords', {
      redirect: 'error',
    }).then(
      () => null,
      (e: unknown) => e as Error & { cause?: Error },
    );
    expect(String(error?.cause?.message)).toMatch(/not a public domain/);
  });

  it("imports Node's built-in modules through require, never through their ES module facade", () => {
    // The facade reads every export, lazy ones too: `import http from 'node:http'` loaded undici (issue 33).
    for (const [name, text] of files) {
      const imported = [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*["']([a-z0-9_:/]+)["']/g)]
        .map((match) => match[1] ?? '')
        .filter((specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier));
      // The banner's two (a `require` and `__filename` for the bundled CommonJS packages) read no lazy export.
      expect(new Set(imported), name).toEqual(new Set(['node:module', 'node:url']));
    }
  });

  it('serves the demo without loading undici, http2, https or web streams (fastify, @fastify/compress and prom-client)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mb-bundle-'));
    fs.cpSync(await migratedPgliteDataDir(), path.join(dataDir, 'pglite'), { recursive: true });
    const record = path.join(dataDir, 'builtins.txt');
    const { port, release } = await reservePort();
    const origin = `http://127.0.0.1:${port}`;
    await release();
    let output = '';
    const child = spawn(
      process.execPath,
      ['--import', path.join(repoRoot, 'e2e/support/record-builtins.mjs'), 'scripts/run.mjs', 'main'],
      {
        cwd: repoRoot,
        env: serverEnv(port, dataDir, { LOG_LEVEL: 'info', RECORD_BUILTINS_FILE: record }),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      // The demo's replay calls the simulated X and the jobs run: then a page, and an answer compressed per request.
      const deadline = Date.now() + 120_000;
      while (!output.includes('worker: leader, jobs scheduled')) {
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`the server did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(200);
      const announcements = await fetch(`${origin}/api/public/announcements?page=1&limit=50`, {
        headers: { 'accept-encoding': 'br' },
      });
      expect(announcements.status).toBe(200);
      expect(announcements.headers.get('content-encoding')).toBe('br');
      expect(await announcements.json()).toMatchObject({ success: true });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const loaded = fs.readFileSync(record, 'utf8').split('\n');
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(loaded).toContain('http');
    expect(loaded).toContain('zlib');
    for (const unused of [
      'internal/deps/undici/undici',
      'http2',
      'https',
      'tls',
      'internal/webstreams/readablestream',
    ])
      expect(loaded, unused).not.toContain(unused);
  }, 180_000);

  it("maps the server's own code to its sources and a package's code to nothing; the whole map is kept beside", () => {
    const [name, text] = [...files].find(([file]) => file.startsWith('serve-')) ?? [];
    if (!name || !text) throw new Error('no serve chunk');
    const dist = path.join(serverDir, 'dist');
    const map = JSON.parse(fs.readFileSync(path.join(dist, `${name}.map`), 'utf8')) as SourceMapPayload;
    expect(map.sources.filter((source) => source.includes('node_modules') || source.includes(':'))).toEqual(
      [],
    );
    const full = JSON.parse(fs.readFileSync(path.join(dist, `${name}.full.map`), 'utf8')) as {
      sources: string[];
    };
    expect(full.sources.some((source) => source.includes('node_modules/fastify/'))).toBe(true);
    const entryAt = (needle: string) => {
      const before = text.slice(0, text.indexOf(needle));
      const line = before.split('\n').length - 1;
      const entry = new SourceMap(map).findEntry(line, before.length - before.lastIndexOf('\n') - 1);
      return 'originalSource' in entry ? entry : { originalSource: undefined };
    };
    expect(entryAt('function buildApp(')).toMatchObject({
      originalSource: expect.stringMatching(/src\/composition\/app\.ts$/),
    });
    expect(entryAt('function isFetchResponse(').originalSource).toBeUndefined();
  });
});
