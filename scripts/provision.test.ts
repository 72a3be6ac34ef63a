import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CPYTHON_IMAGES } from '../runtimes/cpython/images.js';

const script = fileURLToPath(new URL('./provision.mjs', import.meta.url));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function provision(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [script, ...args], { timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The plan's line for one step: `skip`, `plan` or (never in a dry run) `start`, then the step's title. */
function stepLine(stdout: string, title: string): string | undefined {
  return stdout.split('\n').find((line) => /^(skip|plan|start) /.test(line) && line.slice(6).startsWith(`${title}:`));
}

describe('provision --dry-run', () => {
  it('plans every step and image without running any', async () => {
    const { code, stdout } = await provision('--dry-run', '--no-registry');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^provision: dry run, nothing is changed$/m);
    expect(stdout).not.toMatch(/^(start|done) /m);
    expect(stepLine(stdout, 'install packages')).toBeDefined();
    expect(stepLine(stdout, 'start the Docker engine')).toBeDefined();
    expect(stepLine(stdout, 'probe a registry for python:3.X-slim')).toContain('disabled by --no-registry');
    for (const image of CPYTHON_IMAGES) {
      // A local python:3.X-slim wins; otherwise the base is the Debian suite that ships the interpreter.
      const base = stepLine(stdout, `base image for CPython ${image.python}`);
      expect(base).toBeDefined();
      if (!base?.includes(image.registryBase)) {
        expect(base).toContain(image.debianBase);
        expect(base).toMatch(/is present with|debootstrap/);
        if (base?.includes('debootstrap')) expect(base).toContain(`--include=${image.debianPackage} ${image.suite}`);
      }
      expect(stepLine(stdout, `runtime image ${image.tag}`)).toBeDefined();
    }
    expect(stdout).toMatch(/^provision: plan complete$/m);
  });

  it('limits the plan to the versions named by --only', async () => {
    const { code, stdout } = await provision('--dry-run', '--no-registry', '--only', '3.9,3.13');
    expect(code).toBe(0);
    const planned = CPYTHON_IMAGES.filter((image) => stepLine(stdout, `runtime image ${image.tag}`) !== undefined);
    expect(planned.map((image) => image.python)).toEqual(['3.9', '3.13']);
  });

  it('rejects an unsupported version with exit 2, naming the supported ones', async () => {
    const { code, stderr } = await provision('--dry-run', '--only', '3.10');
    expect(code).toBe(2);
    expect(stderr).toContain('no CPython runtime image for "3.10"; supported versions: 3.9, 3.11, 3.13, 3.14');
  });

  it('describes itself with --help', async () => {
    const { code, stdout } = await provision('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('--dry-run');
    expect(stdout).toContain('concord-cpython:3.9');
  });
});

describe('concord provision', () => {
  const concord = fileURLToPath(new URL('../bin/concord.mjs', import.meta.url));
  const cli = async (...args: string[]): Promise<Outcome> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [concord, 'provision', ...args], { timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  };

  it('is the same script: its options pass through, and its exit code comes back', async () => {
    const plan = await cli('--dry-run', '--no-registry', '--only', '3.9');
    expect(plan.code, plan.stderr).toBe(0);
    expect(stepLine(plan.stdout, 'runtime image concord-cpython:3.9')).toBeDefined();
    expect((await cli('--dry-run', '--only', '3.10')).code).toBe(2);
  });

  it('--cache-key names the images by their versions and the hash of what they are built from', async () => {
    const { stdout } = await cli('--cache-key');
    expect(stdout.trim()).toMatch(new RegExp(`^concord-images-${CPYTHON_IMAGES.map((i) => i.python.replace('.', '\\.')).join('-')}-[0-9a-f]{16}$`));
    expect((await cli('--cache-key', '--only', '3.9')).stdout.trim()).toMatch(/^concord-images-3\.9-[0-9a-f]{16}$/);
  });

  it('--image-cache plans to load the images from DIR/<key>.tar, or to build and save them there', async () => {
    const key = (await cli('--cache-key', '--only', '3.9')).stdout.trim();
    const { code, stdout } = await cli('--dry-run', '--no-registry', '--only', '3.9', '--image-cache', '/nonexistent-cache');
    expect(code).toBe(0);
    expect(stepLine(stdout, 'load the runtime images from the cache')).toContain(`/nonexistent-cache/${key}.tar does not exist yet`);
    expect(stepLine(stdout, 'save the runtime images for the cache')).toContain(`docker save concord-cpython:3.9 to /nonexistent-cache/${key}.tar`);
  });
});
