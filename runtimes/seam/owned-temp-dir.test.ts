import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownedTempDir } from './owned-temp-dir.js';
import { builtModule } from './package-root.js';

describe('ownedTempDir', () => {
  it('names the folder after this process and sweeps folders of processes that are gone, not of live ones', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    const gonePid = gone.pid!;
    await new Promise((resolve) => gone.once('exit', resolve));
    const abandoned = mkdtempSync(join(tmpdir(), `concord-owned-test-${gonePid}-`));
    const live = mkdtempSync(join(tmpdir(), `concord-owned-test-${process.ppid}-`));
    try {
      const dir = ownedTempDir('concord-owned-test');
      expect(dir.startsWith(join(tmpdir(), `concord-owned-test-${process.pid}-`))).toBe(true);
      expect(existsSync(dir)).toBe(true);
      expect(existsSync(abandoned)).toBe(false);
      expect(existsSync(live)).toBe(true);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      for (const name of readdirSync(tmpdir()))
        if (name.startsWith('concord-owned-test-')) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  });

  it("sweeps, on a process's first folder, what dead processes left of every kind a command makes, and nothing else", async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    const dead = gone.pid!;
    await new Promise((resolve) => gone.once('exit', resolve));
    const temp = mkdtempSync(join(tmpdir(), 'concord-owned-kinds-'));
    try {
      const folders = {
        pyright: `concord-pyright-${dead}-aaaaaa`,
        pyodide: `concord-pyodide-${dead}-aaaaaa`,
        livePyright: `concord-pyright-${process.pid}-aaaaaa`,
        // The provisioner's Debian tree may still have mounts: only the provisioner removes it.
        rootfs: `concord-rootfs-${dead}-trixie-aaaaaa`,
        otherTool: `concord-notes-${dead}-aaaaaa`,
        noPid: 'concord-pyright-x-aaaaaa',
      };
      for (const name of Object.values(folders)) mkdirSync(join(temp, name));
      const made = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { ownedTempDir } = await import(${JSON.stringify(builtModule('runtimes/seam/owned-temp-dir.js'))}); ownedTempDir('concord-assembly'); ownedTempDir('concord-assembly');`,
        ],
        { env: { ...process.env, TMPDIR: temp }, encoding: 'utf8' },
      );
      expect(made.stderr).toBe('');
      expect(readdirSync(temp).sort()).toEqual(
        [folders.noPid, folders.otherTool, folders.livePyright, folders.rootfs].sort(),
      );
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  });
});
