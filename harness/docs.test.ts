import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../runtimes/seam/package-root.js';
import { COMMANDS } from './cli/commands/all.js';

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

describe("docs/runtimes.md's isolation tables", () => {
  const tables = section(read('docs/runtimes.md'), '## What each runtime isolates');
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

/** The pages a reader follows links through: the README, CONTRIBUTING, the changelog and every docs page. */
const PAGES = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...readdirSync(join(packageRoot(), 'docs'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file}`),
];

/** A Markdown page's prose lines: fenced code blocks left out, inline code spans blanked. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  const lines: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) lines.push(line.replace(/`[^`]*`/g, '``'));
  }
  return lines;
}

/** The anchors of a page's headings, as GitHub makes them (lower case, punctuation dropped, spaces as dashes). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    found.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return found;
}

describe('links between the pages', () => {
  it('resolve: every relative link names a file that exists, and every #anchor a heading of its page', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      const text = read(page);
      for (const line of proseLines(text)) {
        for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          if (/^(https?:|mailto:)/.test(target!)) continue;
          checked++;
          const [path, anchor] = target!.split('#') as [string, string | undefined];
          const file = path === '' ? page : relative(packageRoot(), join(packageRoot(), dirname(page), path));
          if (!existsSync(join(packageRoot(), file))) {
            broken.push(`${page}: ${target} (no ${file})`);
            continue;
          }
          if (anchor !== undefined && (!file.endsWith('.md') || !anchors(read(file)).has(anchor)))
            broken.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
          else if (
            anchor === undefined &&
            !file.endsWith('.md') &&
            !statSync(join(packageRoot(), file)).isFile() &&
            !statSync(join(packageRoot(), file)).isDirectory()
          )
            broken.push(`${page}: ${target}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(broken).toEqual([]);
  });

  it("resolve in the installed package too: every file the README links to is in package.json's files", () => {
    const shipped = (JSON.parse(read('package.json')) as { files: string[] }).files.filter((f) => !f.startsWith('!'));
    const linked = proseLines(read('README.md')).flatMap((line) =>
      [...line.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((t) => !/^(https?:|mailto:)/.test(t)),
    );
    expect(linked.length).toBeGreaterThan(10);
    expect(
      linked.filter((target) => !shipped.some((f) => (f.endsWith('/') ? target.startsWith(f) : target === f))),
    ).toEqual([]);
  });

  it('read anchors as GitHub writes them', () => {
    expect([
      ...anchors('## Unstable pairs, state between pairs, `.env`\n### 1. Install\n## concord.config.yml\n## A\n## A'),
    ]).toEqual(['unstable-pairs-state-between-pairs-env', '1-install', 'concordconfigyml', 'a', 'a-1']);
  });
});

describe('the commands the README shows', () => {
  const program = new Command('concord');
  for (const register of COMMANDS) register(program);
  const commands = new Map(program.commands.map((command) => [command.name(), command]));
  /** What every command takes: its own help, the version, and the stack of a failure. */
  const everywhere = ['--help', '--version', '--debug'];

  /** The README's code: the lines of its fenced blocks and its inline code spans. */
  const code: string[] = [];
  let fenced = false;
  for (const line of read('README.md').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (fenced) code.push(line);
    else for (const [, span] of line.matchAll(/`([^`]+)`/g)) code.push(span!);
  }
  /** Each `concord <command> …` the README's code shows, with the flags it writes. */
  const shown: Array<{ command: string; flags: string[]; line: string }> = [];
  for (const line of code) {
    for (const [whole, command, rest] of line.matchAll(/\bconcord ([a-z][a-z-]*)((?:[ \t]+[^\s#|]+)*)/g)) {
      const flags = (rest ?? '').split(/\s+/).flatMap((word) => {
        const flag = /^\[?(--[a-z][a-z-]*)/.exec(word);
        return flag ? [flag[1]!] : [];
      });
      shown.push({ command: command!, flags, line: whole });
    }
  }

  it("are commands of concord, each flag in that command's --help", () => {
    expect(shown.length).toBeGreaterThan(15);
    const unknown = shown.flatMap(({ command, flags, line }) => {
      const known = commands.get(command);
      if (known === undefined) return [`${line}: no command ${command}`];
      const options = new Set([...known.options.map((option) => option.long), ...everywhere]);
      return flags
        .filter((flag) => !options.has(flag))
        .map((flag) => `${line}: ${flag} is not in concord ${command} --help`);
    });
    expect(unknown).toEqual([]);
  });

  it('list every command in the command table', () => {
    const table = section(read('README.md'), '## Commands');
    expect([...commands.keys()].filter((name) => !table.includes(`\`concord ${name}\``))).toEqual([]);
  });
});
