import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { processContainment } from './process-launcher.js';
import { type CpythonRuntime, createCpythonRuntime } from './runtime.js';
import { fixtureTools } from './test/fixtures.js';

/**
 * concord run by an account that is not root (a hosted CI runner's): runs share that account, and the environment of
 * its processes (the gate's own, with every secret the job was given) is theirs to read unless the server has a
 * process list of its own. Where the host allows a user namespace, it does.
 */

const SECRET = 'concord-unprivileged-secret-0a1b2c3d';

(await Host.with('unshare')).describe('python-process runs of an account that is not root', () => {
  let runtime: CpythonRuntime | undefined;
  let holder: ChildProcess | undefined;
  const notices: string[] = [];
  beforeAll(async () => {
    vi.spyOn(process, 'getuid').mockReturnValue(1000);
    // A process of the account holding the secret in its environment, as the gate holds the job's.
    holder = spawn('sleep', ['60'], { env: { ...process.env, CONCORD_TEST_LEDGER_TOKEN: SECRET }, stdio: 'ignore' });
    runtime = await createCpythonRuntime(
      { isolation: 'process', timeoutMs: 20_000 },
      { notices: { say: (line: string) => void notices.push(line) } },
    );
  });
  afterAll(async () => {
    await runtime?.dispose();
    holder?.kill('SIGKILL');
    vi.restoreAllMocks();
  });

  it('run in a user namespace of their own: no process of the host is theirs to list, nor its environment', async () => {
    const containment = processContainment();
    expect(containment.namespaces).toMatchObject({ user: true });
    expect(containment.notIsolated.join('; ')).not.toContain('environment');
    const program = [
      'import os',
      'seen = []',
      'for pid in os.listdir("/proc"):',
      '    if pid.isdigit():',
      '        try:',
      '            with open("/proc/%s/environ" % pid, "rb") as environ:',
      '                seen.append(environ.read().decode("utf-8", "replace"))',
      '        except OSError:',
      '            pass',
      'return {"pids": len([p for p in os.listdir("/proc") if p.isdigit()]), "environ": "\\n".join(seen)}',
    ].join('\n');
    const result = await runtime!.run({ program, bindings: fixtureTools(), timeoutMs: 20_000 });
    expect(result.error, JSON.stringify(result)).toBeUndefined();
    const value = result.value as { pids: number; environ: string };
    expect(value.environ).not.toContain(SECRET);
    expect(value.pids).toBeLessThan(10);
    expect(notices.join('\n')).not.toContain('/proc/<pid>/environ');
  });
});
