import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isLintProbe } from './lint-probes';

/**
 * The import graph of TypeScript source files, read from the text (decision 189): every
 * `import … from`, `export … from`, side-effect `import '…'` and `import('…')`, type-only ones
 * included, since a type-only circle is still a circle in the design. Only the project's own
 * files are followed (relative specifiers and the `@/`, `@shared/` aliases); packages are leaves.
 */
export type ImportGraph = Map<string, string[]>;

const ALIASES: [prefix: string, folder: string][] = [
  ['@shared/', 'src/shared/'],
  ['@/', 'src/client/'],
];

/** importsOf lists the module specifiers a source text imports or re-exports. */
export function importsOf(source: string): string[] {
  const code = withoutComments(source);
  const found: string[] = [];
  const patterns = [
    // import x from '…', import type { … } from '…', export { … } from '…', export * from '…'
    /(?:^|[;{}])\s*(?:import|export)\s[^;'"`]*?\bfrom\s*(['"])([^'"\n]+)\1/g,
    // import '…' (for its side effects)
    /(?:^|[;{}])\s*import\s*(['"])([^'"\n]+)\1/g,
    // import('…'), and typeof import('…') in types
    /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of code.matchAll(pattern)) found.push(match[2]);
  }
  return found;
}

/**
 * withoutComments blanks out comments and the text of every string and template literal but a
 * module specifier (a string right after `from`, `import` or `import(`), keeping line breaks, so
 * an import in a comment or a string is not read as one. A quote or apostrophe ends at the end
 * of its line, so a regular expression holding one misleads this reader for that line only.
 */
export function withoutComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === "'" || c === '"' || c === '`') {
      let end = i + 1;
      while (end < source.length && source[end] !== c) {
        if (c !== '`' && source[end] === '\n') break;
        end += source[end] === '\\' ? 2 : 1;
      }
      const closed = source[end] === c;
      const text = source.slice(i + 1, end);
      const specifier = closed && c !== '`' && /(?:\bfrom|\bimport\s*\(?)\s*$/.test(out.slice(-20));
      out += `${c}${specifier ? text : text.replace(/[^\n]/g, ' ')}${closed ? c : ''}`;
      i = closed ? end + 1 : end;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

/** resolveImport names the project file a specifier points at, or null for a package. */
export function resolveImport(root: string, fromFile: string, specifier: string): string | null {
  let base: string;
  const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
  if (alias) base = path.join(root, alias[1], specifier.slice(alias[0].length));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(fromFile), specifier);
  else return null;
  const stem = base.replace(/\.(js|mjs|cjs)$/, '');
  const candidates = [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ];
  const hit = candidates.find((file) => existsSync(file) && statSync(file).isFile());
  if (!hit) throw new Error(`${path.relative(root, fromFile)}: cannot resolve '${specifier}'`);
  return hit;
}

/**
 * isTestCode says whether a file is a test, or a suite's shared set-up beside its tests
 * (`*.fixtures.ts`, decision 244): neither is module code, so the layering rules pass over both.
 */
export function isTestCode(file: string): boolean {
  return /\.(test|fixtures)\.tsx?$/.test(file);
}

/** sourceFiles lists every .ts and .tsx file under a folder. */
export function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts') && !isLintProbe(name))
    .map((name) => path.join(folder, name))
    .sort();
}

/**
 * importGraph reads the files under the start folders and, following their imports, every
 * project file they reach (wherever it lies). Keys and edges are paths relative to `root`.
 */
export function importGraph(root: string, startFolders: string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  const pending = startFolders.flatMap((folder) => sourceFiles(path.join(root, folder)));
  while (pending.length > 0) {
    const file = pending.pop() as string;
    const key = path.relative(root, file);
    if (graph.has(key)) continue;
    const targets = new Set<string>();
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolveImport(root, file, specifier);
      if (target && /\.(tsx?|mts)$/.test(target)) targets.add(target);
    }
    graph.set(
      key,
      [...targets].map((target) => path.relative(root, target)),
    );
    pending.push(...targets);
  }
  return graph;
}

/**
 * stronglyConnected lists the graph's strongly connected components that hold a circle (Tarjan):
 * two nodes or more, or one that imports itself; each in the order Tarjan closes it.
 */
export function stronglyConnected(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;

  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfImport = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfImport) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/**
 * importCycles finds every import circle: one per strongly connected component of the graph,
 * each given as a path that starts and ends at its first file in sorted order.
 */
export function importCycles(graph: ImportGraph): string[][] {
  return stronglyConnected(graph)
    .map((component) => cycleThrough(graph, new Set(component)))
    .sort((a, b) => a[0].localeCompare(b[0]));
}

/**
 * moduleGraph folds a file graph into a graph of modules: `moduleOf` names a file's module (null:
 * left out), and each edge between two modules keeps the file imports that make it, as
 * `from → to`, for the failure messages.
 */
export function moduleGraph(
  graph: ImportGraph,
  moduleOf: (file: string) => string | null,
): { modules: ImportGraph; imports: Map<string, string[]> } {
  const modules: ImportGraph = new Map();
  const imports = new Map<string, string[]>();
  for (const [file, targets] of graph) {
    const from = moduleOf(file);
    if (from === null) continue;
    if (!modules.has(from)) modules.set(from, []);
    for (const target of targets) {
      const to = moduleOf(target);
      if (to === null || to === from) continue;
      const edge = `${from} → ${to}`;
      if (!imports.has(edge)) {
        imports.set(edge, []);
        (modules.get(from) as string[]).push(to);
      }
      (imports.get(edge) as string[]).push(`${file} → ${target}`);
    }
  }
  return { modules, imports };
}

/** cycleThrough gives one concrete circle inside a component: its first file back to itself. */
function cycleThrough(graph: ImportGraph, component: Set<string>): string[] {
  const start = [...component].sort()[0];
  // Breadth-first from the start, within the component, to the shortest way back to it.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]) as string);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
