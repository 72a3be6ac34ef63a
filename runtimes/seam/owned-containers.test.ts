import { spawnSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { Host } from '../../test/host-requirements.js';
import { CPYTHON_IMAGES } from '../cpython/images.js';
import { builtModule } from './package-root.js';
import { HOST_PID_LABEL } from './owned-containers.js';

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

(await Host.with('docker')).describe('containers a process starts', () => {
  const image = CPYTHON_IMAGES[0]!.tag;
  for (const [how, exit] of [
    ['exits', 'process.exit(0);'],
    ['is interrupted (a signal the command turns into an exit)', "process.once('SIGINT', () => process.exit(130)); process.kill(process.pid, 'SIGINT'); await new Promise(() => {});"],
  ] as const) {
    it(`are removed when the process ${how}, even one whose id it never learned`, { timeout: 60_000 }, () => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', orphaning(image, exit)], { encoding: 'utf8' });
      expect(child.stderr).toBe('');
      const pid = Number(child.stdout.trim());
      expect(pid).toBeGreaterThan(0);
      expect(containersOf(pid)).toEqual([]);
    });
  }

  it('carry the pid of the process that started them beside their own labels', async () => {
    const { ownedContainerLabels } = await import('./owned-containers.js');
    expect(ownedContainerLabels({ 'org.concord.role': 'compile' })).toEqual({ 'org.concord.role': 'compile', [HOST_PID_LABEL]: String(process.pid) });
  });
});
