import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { paths } from '../config/config';

/** The workspaces' source roots, tests, e2e support and tools included: every file the repository's code is in. */
const ROOTS = ['apps', 'packages', 'e2e', 'bench', 'scripts'];
const SOURCE = /\.(ts|tsx|mts|cts)$/;
const SKIPPED = new Set(['node_modules', 'dist', 'coverage']);

/** Every import of the repository's own files, as repository-relative paths: file → the files it imports. */
export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/**
 * Reads the imports of every source file with TypeScript's own module resolution (the settings of
 * tsconfig.base.json, so workspace packages resolve through node_modules to their sources as the compiler sees
 * them). Type-only imports, re-exports and dynamic `import()` count: a reader follows them all the same.
 */
export function importGraph(root = paths.repoRoot): ImportGraph {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    jsx: ts.JsxEmit.ReactJSX,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
  };
  const cache = ts.createModuleResolutionCache(root, (name) => name, options);
  const files = ROOTS.flatMap((dir) => sourceFiles(path.join(root, dir)));
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys, cache).resolvedModule;
      if (!resolved) continue;
      // A workspace package resolves through its node_modules link to its sources; other packages stay outside.
      const target = fs.realpathSync(resolved.resolvedFileName);
      const own =
        target.startsWith(`${root}${path.sep}`) && !target.includes(`${path.sep}node_modules${path.sep}`);
      if (own && SOURCE.test(target) && !target.endsWith('.d.ts')) targets.add(path.relative(root, target));
    }
    graph.set(path.relative(root, file), [...targets].sort());
  }
  return graph;
}

/** The import circles of a graph: each strongly connected group of files (Tarjan's algorithm), or a self-import. */
export function importCircles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  let next = 0;
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file) ?? 0, index.get(target) ?? 0));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
