import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { plantedCopy, type Plant } from './test/planted-copy.js';

/**
 * Each renderer regression is planted in a copy of this repository's built reference backend, and a
 * maintainer blesses it with `concord gate --update=all`: the gate must still fail, naming what broke.
 * The scenario and runtime are one of each language the regression is in; the probe runs regardless.
 */
async function blessedGate(plants: readonly Plant[], runtimes: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const copy = await plantedCopy(plants);
  try {
    const env = { ...process.env };
    delete env.CI;
    const run = spawnSync(process.execPath, [join(copy.root, 'bin', 'concord.mjs'), 'gate', '--update=all', '--scenario', 'mode-both', '--runtime', ...runtimes], {
      cwd: copy.root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    await copy.dispose();
  }
}

const CLASS_NAMES = 'dist/codemode/sdk/python/class-names.js';
const python39 = await Host.with('python3.9');

describe('renderer regressions blessed with --update=all', () => {
  it('the unplanted copy passes, so every failure below is the plant', { timeout: 300_000 }, async () => {
    const run = await blessedGate([], ['typescript', 'python']);
    expect(run.stdout, run.stderr).toMatch(/✓ renderer-floor \(1 app\(s\)\) \d+ ms · ✓ probe typescript \d+ ms · ✓ probe python \d+ ms/);
    expect(run.status, run.stdout).toBe(0);
  });

  it('fails when class names are no longer NFKC-normalized after a join, naming the colliding classes', { timeout: 300_000 }, async () => {
    // The builder validates the normalized spelling but writes the raw one: distinct strings, one symbol.
    const run = await blessedGate(
      [
        { file: CLASS_NAMES, from: ".normalize('NFKC')", to: '' },
        { file: CLASS_NAMES, from: 'this.#rules.isBareName(name)', to: "this.#rules.isBareName(name.normalize('NFKC'))" },
      ],
      ['python'],
    );
    expect(run.status, run.stderr).toBe(1);
    const collision = run.stdout.split('\n').find((line) => line.includes('Tool\u0301pingArgs ('));
    expect(collision, run.stderr).toMatch(/^error probe: python \(the app of mode-both on python\): tools-sdk\.py: declared names collide: .* are one name after NFKC \(Too\u013apingArgs\); the last one shadows the others$/u);
    expect(collision, run.stderr).toMatch(/Too\u013apingArgs \(line \d+, column 7\)/u);
    expect(run.stdout, run.stderr).toMatch(/declared names collide: .*가Args.* are one name after NFKC/u);
  });

  python39.it('fails when __peg_parser__ is no longer a keyword, naming the tool, CPython 3.9, line and column', { timeout: 300_000 }, async () => {
    // The reference keeps every dunder out of class bodies as well; that guard goes too, or it alone would hide the keyword.
    const run = await blessedGate(
      [
        { file: 'dist/codemode/sdk/identifiers/versions.js', from: " '__peg_parser__',", to: '' },
        { file: 'dist/codemode/sdk/python/index.js', from: 'return rules.isBareName(key) && !isDunderName(key);', to: 'return rules.isBareName(key);' },
      ],
      ['python'],
    );
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout, run.stderr).toMatch(/error probe: python \(the app of mode-both on python\): tools-sdk\.py does not compile on (local|container) 3\.9 \(CPython 3\.9\.\d+, Unicode 13\.0\.0\), at line \d+, column \d+; it fails for the tool "fields" \(alone: line \d+, column \d+\): SyntaxError/);
  });

  it('fails when the Python renderer drops the tools it lists for subscript access, naming each', { timeout: 300_000 }, async () => {
    const run = await blessedGate([{ file: 'dist/codemode/sdk/python/index.js', from: '            members.push(lines);', to: '' }], ['python']);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout, run.stderr).toContain('error probe: python (the app of mode-both on python): tools-sdk.py: tool "class" is not reachable from the SDK: no method and no listed name reaches it');
    expect(run.stdout, run.stderr).toContain('tool "a-b" is not reachable from the SDK');
  });

  it('fails when the TypeScript renderer merges a-b into a_b, naming both', { timeout: 300_000 }, async () => {
    const run = await blessedGate([{ file: 'dist/codemode/sdk/typescript/index.js', from: ': propertyName(tool.name);', to: ": propertyName(tool.name.replace(/-/g, '_'));" }], ['typescript']);
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout, run.stderr).toMatch(/error probe: typescript \(the app of mode-both on typescript\): tools-sdk\.ts: tool "a-b" is not reachable from the SDK/);
    expect(run.stdout, run.stderr).toMatch(/tool "a_b" is reachable 2 times: method a_b \(line \d+, column 3\); method a_b \(line \d+, column 3\)/);
    expect(run.stdout, run.stderr).toMatch(/tools-sdk\.ts gives no way to reach the tool "a-b" \(tsc, line \d+, column \d+\)/);
  });
});
