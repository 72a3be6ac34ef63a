import { spawnSync } from 'node:child_process';
import { cp, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedExample } from './test/installed-example.js';

/**
 * examples/sdk-styles: a backend of its own (registry, agent, renderer) whose SDKs are written in the shapes other
 * renderers write: a mapped type, an interface that extends another, a declared class, a namespace, one alias per
 * tool, an intersection; a class of methods, a Protocol with __getitem__ overloads, inherited methods, functional
 * TypedDicts, total=False bases, Optional and X | None. Installed from the packed tarball in a copy outside this
 * repository, every scenario gates with no finding from any check, the probe's included; each of its variants has
 * a mistake planted in its renderer, and the gate names it.
 */

const example = installedExample('sdk-styles');

function concord(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [example.bin, ...args], {
    cwd: example.root,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, CI: '', NO_COLOR: '1' },
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('a backend whose SDKs take the shapes other renderers write', () => {
  it('gates every shape with no finding: names, language, stubs, bound names, type checks, the probe and the floor', {
    timeout: 600_000,
  }, async () => {
    const scenarios = (await readdir(join(example.root, 'scenarios'))).map((name) => basename(name, '.yml')).sort();
    expect(scenarios).toHaveLength(6);
    const recorded = concord('gate', '--update=new');
    expect(recorded.status, recorded.output).toBe(0);
    // One scenario at a time, so the probe judges each scenario's own renderer.
    for (const scenario of scenarios) {
      const gate = concord('gate', '--scenario', scenario);
      expect(gate.status, gate.output).toBe(0);
      expect(gate.output).toMatch(
        /✓ renderer-floor \(1 app\(s\)\) \d+ ms · ✓ probe typescript \d+ ms · ✓ probe python/,
      );
      expect(gate.output).not.toMatch(/^error /m);
      expect(gate.output).toContain('gate: everything agrees');
    }
  });

  const planted: Record<string, RegExp> = {
    'ts-drops-a-tool': /sdk-names: tools-sdk\.ts: tool "glossary_search" is not reachable from the SDK/,
    'ts-drops-quoted': /sdk-names: tools-sdk\.ts: tool "glossary-export" is not reachable from the SDK/,
    'ts-doubled':
      /sdk-names: tools-sdk\.ts: declared names collide: ToolCallError \(line 3, column 15\), ToolCallError/,
    'py-drops-a-tool': /sdk-names: tools-sdk\.py: tool "glossary_search" is not reachable from the SDK/,
    'py-doubled':
      /sdk-names: tools-sdk\.py: declared names collide: ToolCallError \(line \d+, column 7\), ToolCallError/,
    'py-past-floor':
      /error renderer-floor: py-past-floor .*: the Python renderer is not pinned to the floor 3\.9: it writes \S+_unicode_1\d_0 \(line \d+, column 15\)/,
    'py-not-required':
      /stub-import: tools-sdk\.py compiles but fails when executed as a module on [^\n]*3\.9[^\n]*ImportError at line 4, column 20: cannot import name 'NotRequired'/,
    'py-pipe-none':
      /stub-import: tools-sdk\.py compiles but fails when executed as a module on [^\n]*3\.9[^\n]*TypeError at line \d+, column \d+: unsupported operand type\(s\) for \|/,
  };

  it.each(Object.keys(planted))('names the mistake of variant %s', { timeout: 300_000 }, async (variant) => {
    await cp(join(example.root, 'variants', `${variant}.yml`), join(example.root, 'scenarios', `${variant}.yml`));
    try {
      const gate = concord('gate', '--scenario', variant, '--update=new');
      expect(gate.status, gate.output).toBe(1);
      expect(gate.output).toMatch(planted[variant]!);
      expect(gate.output).toContain('gate: FAILED');
      // The probe's tools the renderer leaves out are one fault: one finding names the first five and counts the rest.
      if (variant === 'ts-drops-quoted') {
        const probe = gate.output.split('\n').filter((line) => line.startsWith('error probe: typescript'));
        expect(probe, gate.output).toHaveLength(1);
        expect(probe[0]).toMatch(
          /: tools-sdk\.ts: \d{2} tools are not reachable from the SDK: no method and no listed name reaches "[^"]+", .* and \d+ more$/,
        );
      }
    } finally {
      await rm(join(example.root, 'scenarios', `${variant}.yml`));
      await rm(join(example.root, 'snapshots', variant), { recursive: true, force: true });
    }
  });
});
