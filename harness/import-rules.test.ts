import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

/** An import of one source file: the file that makes it and the repository-relative `.ts` file it names. */
interface Arrow {
  file: string;
  target: string;
}

const isTest = (path: string) => /\.test\.ts$|\/test\//.test(path);

/**
 * Every relative import of each `.ts` file below `folder`, as the TypeScript compiler's pre-processor reads
 * them: `import`, `import type`, `export … from` and `import()` alike, so a type-only import counts.
 */
function arrowsBelow(folder: string, options: { tests: boolean }): Arrow[] {
  const found: Arrow[] = [];
  const pending = [join(ROOT, folder)];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && (options.tests || !isTest(path))) {
        for (const imported of ts.preProcessFile(readFileSync(path, 'utf8'), true, true).importedFiles) {
          if (!imported.fileName.startsWith('.')) continue;
          const target = relative(ROOT, resolve(dirname(path), imported.fileName)).replace(/\.js$/, '.ts');
          found.push({ file: relative(ROOT, path), target });
        }
      }
    }
  }
  return found;
}

/** The files of each circle of `arrows` (strongly connected parts of more than one file), each sorted. */
function circles(arrows: readonly Arrow[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { file, target } of arrows) next.set(file, [...(next.get(file) ?? []), target]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of next.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const circle: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      circle.push(member);
      if (member === file) break;
    }
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return found;
}

/**
 * The layers of `harness/`, bottom first, as docs/architecture.md lists them: each numbered line names its
 * folders (`harness/gate/`) and files (`harness/session.ts`) in backticks before its first colon.
 */
function documentedLayers(): Array<{ name: string; places: string[] }> {
  const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = /^## Layers of the harness\n([\s\S]*?)(?=^## )/m.exec(page)?.[1] ?? '';
  return [...section.matchAll(/^\d+\. \*\*([^*]+)\*\*([^:\n]*)/gm)].map((line) => ({
    name: line[1]!,
    places: [...line[2]!.matchAll(/`([^`]+)`/g)].map((place) => place[1]!),
  }));
}

const LAYERS = documentedLayers();

/** The layer of a harness source file (0 is the bottom), or -1 when no layer names it. */
function layerOf(file: string): number {
  return LAYERS.findIndex(({ places }) =>
    places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place)),
  );
}

/** What a foreign backend offers the gate: the public entry point and the plugins. */
const CODEMODE_PUBLIC = ['codemode/index.ts', 'codemode/tools/plugin.ts', 'codemode/agent/plugin.ts'];

/**
 * The one circle the project keeps: cordis's type augmentation, where the context declares the services that use it.
 */
const CORDIS_AUGMENTATION = ['codemode/agent/agent.ts', 'codemode/tools/context.ts', 'codemode/tools/registry.ts'];

const show = ({ file, target }: Arrow) => `${file} imports ${target}`;

describe('imports point one way', () => {
  it('the harness uses the reference backend only through its public entry points', () => {
    const internal = arrowsBelow('harness', { tests: false }).filter(
      ({ target }) => target.startsWith('codemode/') && !CODEMODE_PUBLIC.includes(target),
    );
    expect(internal.map(show)).toEqual([]);
  });

  it('codemode knows only the runtime seam and the contract', () => {
    const outside = arrowsBelow('codemode', { tests: false }).filter(
      ({ target }) => !/^(codemode|contract|runtimes\/seam)\//.test(target),
    );
    expect(outside.map(show)).toEqual([]);
  });

  it('runtimes know only the seam and themselves, and nothing imports the harness', () => {
    const runtimes = arrowsBelow('runtimes', { tests: false }).filter(({ file, target }) => {
      const own = file.split('/').slice(0, 2).join('/');
      return !target.startsWith('runtimes/seam/') && !target.startsWith(own + '/');
    });
    const intoHarness = ['codemode', 'runtimes', 'contract']
      .flatMap((folder) => arrowsBelow(folder, { tests: true }))
      .filter(({ target }) => target.startsWith('harness/'));
    expect([...runtimes, ...intoHarness].map(show)).toEqual([]);
  });
});

describe('the layers of the harness', () => {
  const arrows = arrowsBelow('harness', { tests: false }).filter(({ target }) => target.startsWith('harness/'));

  it('are listed in docs/architecture.md, and every source file of the harness stands in one', () => {
    expect(LAYERS.length).toBeGreaterThan(10);
    const files = [...new Set(arrowsBelow('harness', { tests: false }).map((a) => a.file))];
    expect(files.filter((file) => layerOf(file) === -1)).toEqual([]);
  });

  it('no file imports one of a higher layer', () => {
    const upward = arrows.filter(({ file, target }) => layerOf(target) > layerOf(file));
    expect(
      upward.map((a) => `${show(a)} (${LAYERS[layerOf(a.file)]!.name} → ${LAYERS[layerOf(a.target)]!.name})`),
    ).toEqual([]);
  });

  it('no files import each other in a circle, type imports counted', () => {
    expect(circles(arrows)).toEqual([]);
  });

  it('the project as a whole keeps no circle but the cordis type augmentation', () => {
    const all = ['harness', 'codemode', 'runtimes', 'contract'].flatMap((folder) =>
      arrowsBelow(folder, { tests: false }),
    );
    expect(circles(all)).toEqual([CORDIS_AUGMENTATION]);
  });

  it('a circle and an upward import are found, naming the files', () => {
    const planted = [
      { file: 'harness/a.ts', target: 'harness/b.ts' },
      { file: 'harness/b.ts', target: 'harness/c.ts' },
      { file: 'harness/c.ts', target: 'harness/a.ts' },
      { file: 'harness/c.ts', target: 'harness/d.ts' },
    ];
    expect(circles(planted)).toEqual([['harness/a.ts', 'harness/b.ts', 'harness/c.ts']]);
    expect(layerOf('harness/gate/gate.ts')).toBeGreaterThan(layerOf('harness/session.ts'));
    expect(layerOf('harness/text/diff.ts')).toBe(0);
    expect(layerOf('harness/unknown-folder/x.ts')).toBe(-1);
  });
});
