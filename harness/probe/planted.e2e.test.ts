import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { keepCache, seedCache } from '../test/warm-cache.js';
import { type Plant, plantedCopy } from './test/planted-copy.js';

/**
 * Renderer regressions are planted in a copy of this repository's built reference backend, and a maintainer
 * blesses them with `concord gate --update=all`: the gate must still fail, naming what broke. Each regression
 * is in other lines of one renderer and each finding names its own tool, class or language, so one blessed
 * gate over one scenario and one runtime of each language carries them all; each test below reads its own
 * regression's finding from that run. The probe runs regardless.
 */
interface Gate {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `concord gate --update=all` on mode-both in a copy with `plants`, its verdict cache first filled from the
 * run's warm cache; with `keep`, what it computed is added to the warm cache. Not about a cold start: the
 * cache is keyed by the judged text, so what a planted renderer writes is judged afresh however warm the cache.
 */
async function blessedGate(
  plants: readonly Plant[],
  runtimes: readonly string[],
  { keep = false } = {},
): Promise<Gate> {
  const copy = await plantedCopy(plants);
  try {
    await seedCache(copy.root);
    const env = { ...process.env };
    delete env.CI;
    const run = spawnSync(
      process.execPath,
      [
        join(copy.root, 'bin', 'concord.mjs'),
        'gate',
        '--update=all',
        '--scenario',
        'mode-both',
        '--runtime',
        ...runtimes,
      ],
      {
        cwd: copy.root,
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 300_000,
      },
    );
    if (keep) await keepCache(copy.root);
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    await copy.dispose();
  }
}

const CLASS_NAMES = 'dist/codemode/sdk/python/class-names.js';

/**
 * Class names are no longer NFKC-normalized after a join: the builder validates the normalized spelling but writes the
 * raw one.
 */
const NOT_NORMALIZED: Plant[] = [
  { file: CLASS_NAMES, from: ".normalize('NFKC')", to: '' },
  { file: CLASS_NAMES, from: 'this.#rules.isBareName(name)', to: "this.#rules.isBareName(name.normalize('NFKC'))" },
];
/**
 * __peg_parser__ is no longer a keyword. The reference keeps every dunder out of class bodies as well; that guard goes
 * too, or it alone would hide the keyword.
 */
const PEG_PARSER_NOT_KEYWORD: Plant[] = [
  { file: 'dist/runtimes/seam/python-keywords.js', from: " '__peg_parser__',", to: '' },
  {
    file: 'dist/codemode/sdk/python/render.js',
    from: 'return rules.isBareName(key) && !isDunderName(key);',
    to: 'return rules.isBareName(key);',
  },
];
/** The Python renderer drops the tools it lists for subscript access. */
const SUBSCRIPT_DROPPED: Plant[] = [
  {
    file: 'dist/codemode/sdk/python/render.js',
    from: 'for (const [index, member] of members.entries()) {',
    to: "for (const [index, member] of members.filter((lines) => !lines[0].trimStart().startsWith('#')).entries()) {",
  },
];
/** The TypeScript renderer merges a-b into a_b. */
const DASH_MERGED: Plant[] = [
  {
    file: 'dist/codemode/sdk/typescript/render.js',
    from: ': propertyName(tool.name);',
    to: ": propertyName(tool.name.replace(/-/g, '_'));",
  },
];

const python39 = await Host.with('python3.9');

let unplanted: Gate;
let planted: Gate;
beforeAll(async () => {
  unplanted = await blessedGate([], ['typescript', 'python'], { keep: true });
  // The planted gate starts from what the unplanted one computed; a planted renderer writes other SDKs, which are
  // judged afresh.
  planted = await blessedGate(
    [...NOT_NORMALIZED, ...PEG_PARSER_NOT_KEYWORD, ...SUBSCRIPT_DROPPED, ...DASH_MERGED],
    ['typescript', 'python'],
  );
}, 600_000);

/** The probe's findings on one runtime, one per line. */
const findings = (run: Gate, runtime: 'python' | 'typescript') =>
  run.stdout
    .split('\n')
    .filter((line) => line.startsWith(`error probe: ${runtime} (the app of mode-both on ${runtime}): `));

describe('renderer regressions blessed with --update=all', () => {
  it('the unplanted copy passes, so every failure below is the plant', () => {
    expect(unplanted.stdout, unplanted.stderr).toMatch(
      /✓ renderer-floor \(1 app\(s\)\) \d+ ms · ✓ probe typescript \d+ ms · ✓ probe python \d+ ms/,
    );
    expect(unplanted.status, unplanted.stdout).toBe(0);
  });

  it('the planted copy fails the blessed gate, on the probe of each language', () => {
    expect(planted.status, planted.stderr).toBe(1);
    expect(planted.stdout, planted.stderr).toMatch(/✗ probe typescript \d+ ms · ✗ probe python \d+ ms/);
  });

  it('fails when class names are no longer NFKC-normalized after a join, naming the colliding classes', () => {
    const collision = findings(planted, 'python').find((line) => line.includes('Tool\u0301pingArgs ('));
    expect(collision, planted.stdout).toMatch(
      /^error probe: python \(the app of mode-both on python\): tools-sdk\.py: declared names collide: .* are one name after NFKC \(Too\u013apingArgs\); the last one shadows the others$/u,
    );
    expect(collision, planted.stdout).toMatch(/Too\u013apingArgs \(line \d+, column 7\)/u);
    expect(findings(planted, 'python').join('\n'), planted.stdout).toMatch(
      /declared names collide: .*가Args.* are one name after NFKC/u,
    );
  });

  python39.it(
    'fails when __peg_parser__ is no longer a keyword, naming the tool, CPython 3.9, line and column',
    {},
    () => {
      expect(findings(planted, 'python').join('\n'), planted.stdout).toMatch(
        /error probe: python \(the app of mode-both on python\): tools-sdk\.py does not compile on (local|container) 3\.9 \(CPython 3\.9\.\d+, Unicode 13\.0\.0\), at line \d+, column \d+; it fails for the tool "fields" \(alone: line \d+, column \d+\): SyntaxError/,
      );
    },
  );

  it('fails when the Python renderer drops the tools it lists for subscript access, naming them in one finding', () => {
    const lost = findings(planted, 'python').find((line) => line.includes('are not reachable from the SDK'));
    // One finding for the fault, naming the first five tools it lost and how many more.
    expect(lost, planted.stdout).toMatch(
      /^error probe: python \(the app of mode-both on python\): tools-sdk\.py: (\d+) tools are not reachable from the SDK: no method and no listed name reaches "class", ("[^"]+", ){3}"[^"]+" and \d+ more$/,
    );
    expect(Number(/: (\d+) tools are not/.exec(lost!)![1])).toBeGreaterThan(20);
    expect(findings(planted, 'python').filter((line) => line.includes('is not reachable'))).toEqual([]);
  });

  it('fails when the TypeScript renderer merges a-b into a_b, naming the tool it lost once', () => {
    const typescript = findings(planted, 'typescript');
    // a_b declared twice is one overloaded method to the compiler: what is lost is a-b, said by the names check;
    // the compiler's own judge does not say it again.
    expect(
      typescript.filter((line) => line.includes('"a-b"')),
      planted.stdout,
    ).toEqual([
      'error probe: typescript (the app of mode-both on typescript): tools-sdk.ts: tool "a-b" is not reachable from the SDK: no method and no listed name reaches it',
    ]);
  });
});
