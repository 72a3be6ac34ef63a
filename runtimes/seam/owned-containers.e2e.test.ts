import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { CPYTHON_IMAGES } from '../cpython/images.js';
import { HOST_LABEL, HOST_PID_LABEL, hostIdentity } from './owned-containers.js';
import { builtModule } from './package-root.js';

const containersOf = (pid: number) =>
  spawnSync('docker', ['ps', '-aq', '--filter', `label=${HOST_PID_LABEL}=${pid}`], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);

// A process that creates a container with its labels but never hands its id to anyone (as a start cut short
// by a signal would), then exits: the exit must remove it all the same.
const orphaning = (image: string, exit: string) => `
const { spawnSync } = await import('node:child_process');
const { ownedContainerLabels } = await import(${JSON.stringify(builtModule('runtimes/seam/owned-containers.js'))});
const labels = Object.entries(ownedContainerLabels({ 'org.concord.role': 'test' })).flatMap(([k, v]) => ['--label', k + '=' + v]);
const created = spawnSync('docker', ['create', '--network', 'none', ...labels, ${JSON.stringify(image)}, 'sleep', '600'], { encoding: 'utf8' });
if (created.status !== 0) { console.error(created.stderr); process.exit(3); }
console.log(process.pid);
${exit}
`;

/** `docker create` (never started) with these labels: the id. */
function created(image: string, labels: Record<string, string>): string {
  const made = spawnSync(
    'docker',
    [
      'create',
      '--network',
      'none',
      ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
      image,
      'sleep',
      '600',
    ],
    { encoding: 'utf8' },
  );
  expect(made.stderr).toBe('');
  return made.stdout.trim();
}
const exists = (id: string) =>
  spawnSync('docker', ['inspect', '--format', '{{.State.Status}}', id], { encoding: 'utf8' }).stdout.trim() ||
  undefined;

(await Host.with('docker')).describe('containers a process starts', () => {
  const image = CPYTHON_IMAGES[0]!.tag;
  for (const [how, exit] of [
    ['exits', 'process.exit(0);'],
    [
      'is interrupted (a signal the command turns into an exit)',
      "process.once('SIGINT', () => process.exit(130)); process.kill(process.pid, 'SIGINT'); await new Promise(() => {});",
    ],
  ] as const) {
    it(`are removed when the process ${how}, even one whose id it never learned`, { timeout: 60_000 }, () => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', orphaning(image, exit)], {
        encoding: 'utf8',
      });
      expect(child.stderr).toBe('');
      const pid = Number(child.stdout.trim());
      expect(pid).toBeGreaterThan(0);
      expect(containersOf(pid)).toEqual([]);
    });
  }

  it("are only this host's: the exit leaves another host's container that carries the same pid", {
    timeout: 60_000,
  }, () => {
    const other = `const { hostIdentity } = await import(${JSON.stringify(builtModule('runtimes/seam/owned-containers.js'))});
spawnSync('docker', ['create', '--network', 'none', '--label', '${HOST_PID_LABEL}=' + process.pid, '--label', '${HOST_LABEL}=another-boot/' + hostIdentity(), ${JSON.stringify(image)}, 'sleep', '600']);
process.exit(0);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', orphaning(image, other)], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    const left = containersOf(Number(child.stdout.trim()));
    try {
      expect(left).toHaveLength(1);
      expect(
        spawnSync('docker', ['inspect', '--format', `{{index .Config.Labels "${HOST_LABEL}"}}`, left[0]!], {
          encoding: 'utf8',
        }).stdout,
      ).toMatch(/^another-boot\//);
    } finally {
      if (left.length > 0) spawnSync('docker', ['rm', '-f', ...left]);
    }
  });

  it('created by a process killed outright before it started them, are removed by the next process that uses the engine, and no others', {
    timeout: 60_000,
  }, async () => {
    // kill -9 runs no exit hook: the container stays created, and one that never runs never ends by itself.
    const child = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', orphaning(image, "process.kill(process.pid, 'SIGKILL');")],
      { encoding: 'utf8' },
    );
    expect(child.signal).toBe('SIGKILL');
    const dead = Number(child.stdout.trim());
    const [abandoned] = containersOf(dead);
    expect(abandoned && exists(abandoned)).toBe('created');
    const host = hostIdentity()!;
    // The same pid on another host (or pid namespace) is another process; a live process may be starting its own.
    const elsewhere = created(image, { [HOST_PID_LABEL]: String(dead), [HOST_LABEL]: `another-boot/${host}` });
    const live = created(image, { [HOST_PID_LABEL]: String(process.pid), [HOST_LABEL]: host });
    try {
      const next = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { dockerEngine } = await import(${JSON.stringify(builtModule('runtimes/seam/docker-engine.js'))}); await dockerEngine();`,
        ],
        { encoding: 'utf8', timeout: 30_000 },
      );
      expect(next.stderr).toBe('');
      expect(exists(abandoned!)).toBeUndefined();
      expect([exists(elsewhere), exists(live)]).toEqual(['created', 'created']);
    } finally {
      spawnSync('docker', ['rm', '-f', abandoned!, elsewhere, live]);
    }
  });

  it('carry the pid of the process that started them beside their own labels', async () => {
    const { ownedContainerLabels } = await import('./owned-containers.js');
    expect(ownedContainerLabels({ 'org.concord.role': 'compile' })).toEqual({
      'org.concord.role': 'compile',
      [HOST_PID_LABEL]: String(process.pid),
      [HOST_LABEL]: hostIdentity(),
    });
    expect(hostIdentity()).toMatch(/^[0-9a-f-]{36}\/pid:\[\d+\]$/);
  });
});
