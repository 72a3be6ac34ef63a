import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { disposeSharedRuntimes } from '../../runtimes/seam/pool.js';

afterAll(() => disposeSharedRuntimes());

describe('concord skew', () => {
  const run = promisify(execFile);
  const cli = [`${packageRoot()}/bin/concord.mjs`, 'skew', '--root', packageRoot()];

  it('refuses an unsupported floor and an unknown scenario with exit code 2', async () => {
    const failed = await run(process.execPath, [...cli, '--floor', '2.7']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--floor: expected one of 3.8, 3.9') });
    const unknown = await run(process.execPath, [...cli, '--scenario', 'nope']).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('--scenario nope: no such scenario in') });
  });

  it("prints JSON for the project's first Python scenario and exits 0 when pinned", { timeout: 120_000 }, async () => {
    // No Docker engine is offered (a closed port on loopback): the report is about the app's renderer, and the
    // local interpreters and the Pyodide releases are interpreters enough; the runtime images would each start a
    // container to say what they are.
    const { stdout } = await run(process.execPath, [...cli, '--floor', '3.13', '--json'], {
      env: { ...process.env, DOCKER_HOST: 'tcp://127.0.0.1:9' },
    });
    const report = JSON.parse(stdout) as {
      app: string;
      nodeUnicode: string;
      pinned: boolean;
      windows: unknown[];
      interpreters: Array<{ unicode: string }>;
    };
    expect(report.app).toBe('scenario exotic-names on python');
    expect(report.nodeUnicode).toBe(process.versions.unicode);
    expect(report.pinned).toBe(true);
    expect(report.windows).toHaveLength(2);
    expect(report.interpreters.length).toBeGreaterThanOrEqual(4);
  });
});
