import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownedTempDir } from './owned-temp-dir.js';

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
      for (const name of readdirSync(tmpdir())) if (name.startsWith('concord-owned-test-')) rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  });
});
