import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot, sourceAsset } from '../../../runtimes/seam/package-root.js';
import { TokenCounter } from '../../cache/token-counter.js';

const sdk = (...args: string[]) =>
  spawnSync(process.execPath, [sourceAsset('bin/concord.mjs'), 'sdk', ...args], {
    cwd: packageRoot(),
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 120_000,
  });

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
