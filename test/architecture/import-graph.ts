// Import-graph checker for the architecture test: parses imports with the TypeScript compiler
// (so comments and strings cannot fake or hide an edge), resolves relative specifiers to files,
// then reports cycles and folder-matrix violations.
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';

/** File contents keyed by posix path relative to the source root, e.g. `server/peer.ts`. */
export type SourceTree = ReadonlyMap<string, string>;

export interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  /** Relative specifiers that name no file in the tree (typos, or paths leaving the root). */
  unresolved: { from: string; specifier: string }[];
}

/** Folder -> folders it may import (same-folder imports are always allowed). */
export type ImportMatrix = Readonly<Record<string, readonly string[] | 'anything'>>;

export interface Cycle {
  /** Every file of the strongly connected component, sorted. */
  members: string[];
  /** Shortest cycles that between them pass through every member; each ends where it starts. */
  examples: string[][];
}

/** Reads every `.ts` and `.json` file under `root`. */
export function readSourceTree(root: string): SourceTree {
  const tree = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|json)$/.test(entry.name))
        tree.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  walk('');
  return tree;
}

/** Tests and the test-only `testing/` folder may import anything, so they are not checked. */
export function isCheckedFile(path: string): boolean {
  return path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.startsWith('testing/');
}

/** The top-level folder a file belongs to; files directly in the root belong to `(root)`. */
export function folderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? '(root)' : path.slice(0, slash);
}

/** Every module specifier in a file, type-only and dynamic ones included. */
export function parseSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const add = (node: ts.Node | undefined): void => {
    if (node && ts.isStringLiteralLike(node)) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      add(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0]); // a computed import() cannot be followed; the checker skips it
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Resolves like NodeNext does for our sources: `./x.js` -> `x.ts`, `./dir` -> `dir/index.ts`. */
export function resolveSpecifier(from: string, specifier: string, tree: SourceTree) {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (target.endsWith('.json')) return tree.has(target) ? target : undefined;
  const base = target.replace(/\.js$/, '');
  return [`${base}.ts`, `${base}.d.ts`, `${base}/index.ts`].find((path) => tree.has(path));
}

export function buildImportGraph(tree: SourceTree): ImportGraph {
  const graph: ImportGraph = { files: [...tree.keys()].sort(), edges: [], unresolved: [] };
  for (const from of graph.files) {
    if (!from.endsWith('.ts')) continue; // JSON files are leaves
    for (const specifier of parseSpecifiers(from, tree.get(from) ?? '')) {
      if (!specifier.startsWith('.')) continue; // packages and node: built-ins
      const to = resolveSpecifier(from, specifier, tree);
      if (to === undefined) graph.unresolved.push({ from, specifier });
      else graph.edges.push({ from, to, specifier });
    }
  }
  return graph;
}

/** Strongly connected components (Tarjan) among checked files, each with example cycles. */
export function findCycles(graph: ImportGraph): Cycle[] {
  const next = new Map<string, string[]>();
  for (const file of graph.files.filter(isCheckedFile)) next.set(file, []);
  for (const { from, to } of graph.edges) {
    const targets = next.get(from);
    if (targets && next.has(to) && !targets.includes(to)) targets.push(to);
  }
  for (const targets of next.values()) targets.sort();

  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: Cycle[] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node)!) {
      if (!index.has(target)) connect(target);
      if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, low.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1 || next.get(node)!.includes(node)) {
      cycles.push(exampleCycles(members.sort(), next));
    }
  };
  for (const file of next.keys()) if (!index.has(file)) connect(file);
  return cycles.sort((a, b) => a.members[0]!.localeCompare(b.members[0]!));
}

// A few short cycles covering the whole component say more about where to cut than one long one.
function exampleCycles(members: string[], next: Map<string, string[]>): Cycle {
  const inside = new Set(members);
  const covered = new Set<string>();
  const examples: string[][] = [];
  for (const start of members) {
    if (covered.has(start)) continue;
    const cycle = shortestCycle(start, (node) => next.get(node)!.filter((n) => inside.has(n)));
    cycle.forEach((file) => covered.add(file));
    examples.push(cycle);
  }
  return { members, examples };
}

function shortestCycle(start: string, next: (node: string) => string[]): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const target of next(node)) {
      if (target === start) {
        const back: string[] = [];
        for (let at = node; at !== start; at = parent.get(at)!) back.push(at);
        return [start, ...back.reverse(), start];
      }
      if (!parent.has(target)) {
        parent.set(target, node);
        queue.push(target);
      }
    }
  }
  throw new Error(`${start} is in a strongly connected component but on no cycle`);
}

export function formatCycle(cycle: Cycle): string {
  const lines = [`${cycle.members.length} files import each other: ${cycle.members.join(', ')}`];
  for (const example of cycle.examples) lines.push(`  ${example.join(' -> ')}`);
  return lines.join('\n');
}

/** One message per unknown folder and per import that the matrix does not allow. */
export function checkMatrix(graph: ImportGraph, matrix: ImportMatrix, root = 'src'): string[] {
  const problems: string[] = [];
  const unknown = [...new Set(graph.files.filter(isCheckedFile).map(folderOf))]
    .filter((folder) => !(folder in matrix))
    .sort();
  for (const folder of unknown) {
    problems.push(
      `${root}/${folder} is not in the import matrix: add it to test/architecture/layers.json`,
    );
  }
  for (const { from, to } of graph.edges) {
    const [source, target] = [folderOf(from), folderOf(to)];
    const allowed = matrix[source];
    if (!isCheckedFile(from) || source === target || allowed === undefined) continue;
    if (allowed === 'anything' || allowed.includes(target)) continue;
    const list = allowed.length === 0 ? 'nothing' : allowed.join(', ');
    problems.push(`${root}/${from} imports ${root}/${to} (${source} may import: ${list})`);
  }
  return [...new Set(problems)]; // a file may import one module twice (type and value)
}
