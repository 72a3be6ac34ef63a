import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PYODIDE_VERSION, PYODIDE_RELEASES } from '../runtimes/pyodide/versions.js';
import { packageRoot } from '../runtimes/seam/package-root.js';
import { Host } from '../test/host-requirements.js';
import { packed } from '../test/packed.js';

// What `npm install concord` costs a project by default: the container runtime (testcontainers), more
// Pyodides, pyright, tsx and the tokenizer are optional peers, installed only by who uses them.

const MAX_MB = 60;
const MAX_PACKAGES = 80;

const manifest = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};
const OPTIONAL_PEERS = Object.keys(manifest.peerDependencies).filter(
  (name) => manifest.peerDependenciesMeta[name]?.optional,
);

describe('the optional peers', () => {
  it('are pinned to the version concord tests with (its devDependencies), and the examples pin the same', () => {
    for (const name of OPTIONAL_PEERS.filter((n) => n !== 'vitest'))
      expect(manifest.peerDependencies[name], name).toBe(manifest.devDependencies[name]);
    for (const example of readdirSync(join(packageRoot(), 'examples'), { withFileTypes: true }).filter((e) =>
      e.isDirectory(),
    )) {
      const { devDependencies } = JSON.parse(
        readFileSync(join(packageRoot(), 'examples', example.name, 'package.json'), 'utf8'),
      ) as { devDependencies: Record<string, string> };
      for (const [name, version] of Object.entries(devDependencies))
        if (name !== 'concord') expect(version, `${example.name}: ${name}`).toBe(manifest.peerDependencies[name]);
    }
  });
});

(await Host.with('npm registry')).describe('the packed tarball installed into a fresh project', () => {
  it(`costs at most ${MAX_MB} MB and ${MAX_PACKAGES} packages, with one Pyodide and none of the optional peers`, {
    timeout: 600_000,
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'concord-install-size-'));
    try {
      const { tarball } = packed();
      const project = join(dir, 'project');
      await mkdir(project);
      await writeFile(
        join(project, 'package.json'),
        JSON.stringify({ name: 'fresh', version: '1.0.0', private: true }, null, 2),
      );
      const install = spawnSync('npm', ['install', '--ignore-scripts=false', '--no-audit', '--no-fund', tarball], {
        cwd: project,
        encoding: 'utf8',
        timeout: 540_000,
      });
      expect(install.status, install.stderr).toBe(0);
      const modules = join(project, 'node_modules');
      const kilobytes = Number(spawnSync('du', ['-sk', modules], { encoding: 'utf8' }).stdout.split('\t')[0]);
      const listed = spawnSync('npm', ['ls', '--all', '--parseable'], { cwd: project, encoding: 'utf8' })
        .stdout.trim()
        .split('\n');
      // The first line is the project itself.
      const packages = listed.length - 1;
      console.log(`default install: ${(kilobytes / 1024).toFixed(1)} MB, ${packages} packages`);
      expect(kilobytes / 1024).toBeLessThanOrEqual(MAX_MB);
      expect(packages).toBeLessThanOrEqual(MAX_PACKAGES);
      for (const peer of OPTIONAL_PEERS) expect(existsSync(join(modules, peer)), `${peer} is installed`).toBe(false);
      expect(readdirSync(modules).filter((name) => name.startsWith('pyodide'))).toEqual([
        PYODIDE_RELEASES[DEFAULT_PYODIDE_VERSION].packageName,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
