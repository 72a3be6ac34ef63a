import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';

const read = (path: string) => readFileSync(join(packageRoot(), path), 'utf8');

/** The text of a Markdown section, from its heading to the next heading of the same or a higher level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const level = heading.split(' ')[0]!;
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end === -1 ? rest : rest.slice(0, end);
}

/** A skip decided by the test file itself: only `Host.with(...)`, the list of what tests need of the host, may skip. */
const OWN_SKIP = /\.skip\b|\bskipIf\b|\brunIf\b|\.todo\b|\bskip:/;

describe('docs/architecture.md', () => {
  it('names only paths that exist', () => {
    const page = read('docs/architecture.md');
    const quoted = [...page.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
    const paths = quoted.filter((q) => /^[\w.-]+(\/[\w.-]*)+$/.test(q));
    const folders = paths.filter((p) => p.endsWith('/'));
    // A bare file name (`calls.ts` in the runtime seam's table) is a file of one of the folders the page names.
    const bare = quoted.filter((q) => /^[\w-]+\.(ts|md|py|yml|mjs)$/.test(q));
    expect(paths.length + bare.length).toBeGreaterThan(20);
    expect(paths.filter((p) => !existsSync(join(packageRoot(), p)))).toEqual([]);
    expect(bare.filter((file) => !folders.some((folder) => existsSync(join(packageRoot(), folder, file))))).toEqual([]);
  });
});

describe("the README's isolation tables", () => {
  const tables = section(read('README.md'), '### What each runtime isolates');
  /** Each row's test cell as [file, test name]; `conformance` is the suite every backend runs. */
  const named: Array<[string, string]> = [];
  for (const row of tables
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| ---') && !line.startsWith('| |'))) {
    const cell = row.split(' | ').at(-1)!.replace(/ \|$/, '');
    let file = '';
    for (const part of cell.split('; ')) {
      // `worker/hostile.test.ts`: a title; conformance (`cpython 3.X container`): a title; or a title of the same file.
      const start = /^(?:`([\w/.-]+\.test\.ts)`|conformance(?: \([^)]*\))?): (.*)$/.exec(part);
      if (start) file = start[1] ?? 'seam/conformance.ts';
      named.push([file, start ? start[2]! : part]);
    }
  }

  it('name tests that exist, by file and title', () => {
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter(([file]) => file === '')).toEqual([]);
    const unknown = named.filter(([file, name]) => {
      const path = join(packageRoot(), 'runtimes', file);
      if (!existsSync(path)) return true;
      const source = readFileSync(path, 'utf8').replace(/\s+/g, ' ');
      // "…", ": " and " / " join parts of titles the table shortens (and of parameterized titles); "±" stands for both
      // sides of a limit.
      return name.split(/\s*(?:…|\/ |: |±)\s*/).some((part) => part.length >= 6 && !source.includes(part.trim()));
    });
    expect(unknown.map(([file, name]) => `${file}: ${name}`)).toEqual([]);
  });

  it('name only tests that CI cannot skip: no skip condition but the list of what tests need of the host', () => {
    const files = [...new Set(named.map(([file]) => file))].filter((file) => basename(file) !== 'conformance.ts');
    // The conformance suite runs on every backend from these files, each without a skip option of its own.
    const suites = [
      'worker/conformance.test.ts',
      'pyodide/conformance.test.ts',
      'cpython/process.test.ts',
      'cpython/container.e2e.test.ts',
    ];
    const skipping = [...files, ...suites].filter((file) =>
      OWN_SKIP.test(readFileSync(join(packageRoot(), 'runtimes', file), 'utf8')),
    );
    expect(skipping).toEqual([]);
  });
});
