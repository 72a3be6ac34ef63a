import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../../runtimes/seam/package-root.js';
import { TokenCounter } from '../../cache/token-counter.js';

const concord = (command: string, ...args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), command, ...args], {
    cwd: packageRoot(),
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 120_000,
  });
const sdk = (...args: string[]) => concord('sdk', ...args);

describe('concord sdk --scenario', () => {
  it('prints the SDK the scenario’s app rendered, byte for byte the file the gate snapshots, and counts it as the gate does', {
    timeout: 240_000,
  }, async () => {
    for (const [runtime, file] of [
      ['typescript', 'tools-sdk.ts'],
      ['python', 'tools-sdk.py'],
    ] as const) {
      const committed = await readFile(join(packageRoot(), 'snapshots', 'exotic-names', runtime, file), 'utf8');
      const printed = sdk('--scenario', 'exotic-names', '--runtime', runtime, '--no-fence');
      expect(printed.stderr).toBe('');
      expect(printed.stdout).toBe(committed);
      const size = await new TokenCounter().measureSdk(runtime, committed, undefined);
      const stats = sdk('--scenario', 'exotic-names', '--runtime', runtime, '--stats');
      expect(stats.stdout).toBe(
        `exotic-names × ${runtime}: the ${runtime} SDK its app shows the model: ${size!.tokens} tokens · ${size!.bytes.toLocaleString('en-US')} bytes (as concord gate counts it)\n`,
      );
    }
  });

  it('refuses a scenario it does not know, and --tools beside --scenario, with exit 2', () => {
    const unknown = sdk('--scenario', 'no-such-scenario');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no-such-scenario');
    const both = sdk('--scenario', 'exotic-names', '--tools', 'tools.json');
    expect(both.status).toBe(2);
    expect(both.stderr).toBe(
      'concord sdk: --scenario takes the tools and language from the scenario: leave out --tools and --language\n',
    );
    const neither = sdk();
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain('or --scenario NAME');
  });
});

describe('concord run --scenario', () => {
  it('runs the program inside the scenario’s app, its own tools answering, in each language', {
    timeout: 240_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-run-scenario-'));
    try {
      const programs = {
        typescript: 'const a = await tools["2fa.verify"]({ text: "hi" });\nconsole.log("called");\nreturn a;\n',
        python: 'a = await tools["class"]({"text": "yo"})\nprint("called")\nreturn a\n',
      };
      for (const [runtime, program] of Object.entries(programs)) {
        const file = join(dir, runtime === 'python' ? 'program.py' : 'program.ts');
        await writeFile(file, program);
        const ran = concord('run', file, '--runtime', runtime, '--scenario', 'exotic-names');
        expect(ran.stderr).toBe('');
        expect(ran.status).toBe(0);
        // The scenario's plugin answers with the tool's name beside its arguments; a fixture tool echoes the arguments.
        const tool = runtime === 'python' ? 'class' : '2fa.verify';
        const text = runtime === 'python' ? 'yo' : 'hi';
        expect(JSON.parse(ran.stdout)).toEqual({ value: { tool, args: { text } }, logs: ['called'], error: null });
      }
      const both = concord(
        'run',
        join(dir, 'program.py'),
        '--runtime',
        'python',
        '--scenario',
        'exotic-names',
        '--tools',
        't.json',
      );
      expect(both.status).toBe(2);
      expect(both.stderr).toBe("concord run: --scenario binds the tools of the scenario's app: leave out --tools\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
