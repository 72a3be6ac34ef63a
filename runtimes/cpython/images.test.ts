import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { sourceAsset } from '../seam/package-root.js';
import { PYTHON_FLOOR } from '../seam/python-floor.js';
import { CPYTHON_IMAGES, cpythonImage, debianBaseTag, FLOOR_IMAGE, GUEST_DIR_IN_IMAGE } from './images.js';

interface ComposeService {
  image: string;
  network_mode?: string;
  build: { context: string; dockerfile: string; network?: string; args: Record<string, string> };
}

// Compose resolves `<<:` merge keys; YAML 1.2 needs them asked for.
const compose = parse(readFileSync(sourceAsset('docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};

/** The value a compose `${VAR:-default}` takes when VAR is unset. */
function composeDefault(value: string): string {
  const match = /^\$\{[A-Z0-9_]+:-(.*)\}$/.exec(value);
  return match?.[1] ?? value;
}

describe('CPython runtime images', () => {
  it('starts at the floor and lists each version once, oldest first', () => {
    const versions = CPYTHON_IMAGES.map((image) => image.python);
    expect(versions[0]).toBe(PYTHON_FLOOR);
    expect(FLOOR_IMAGE).toBe(`concord-cpython:${PYTHON_FLOOR}`);
    expect(versions).toEqual(['3.9', '3.11', '3.13', '3.14']);
  });

  it('names tags, bases and Debian packages after the version and suite', () => {
    for (const image of CPYTHON_IMAGES) {
      expect(image.tag).toBe(`concord-cpython:${image.python}`);
      expect(image.registryBase).toBe(`python:${image.python}-slim`);
      expect(image.debianPackage).toBe(`python${image.python}`);
      expect(image.debianBase).toBe(debianBaseTag(image.suite));
    }
    expect(CPYTHON_IMAGES.map((image) => image.suite)).toEqual(['bullseye', 'bookworm', 'trixie', 'sid']);
  });

  it('looks a version up, and names the supported ones for an unknown version', () => {
    expect(cpythonImage('3.13').suite).toBe('trixie');
    expect(() => cpythonImage('3.10')).toThrow('supported versions: 3.9, 3.11, 3.13, 3.14');
  });
});

describe('docker-compose.yml', () => {
  it('has exactly one service per supported image', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      CPYTHON_IMAGES.map((image) => `cpython-${image.python}`).sort(),
    );
  });

  it.each(CPYTHON_IMAGES.map((image) => [image.python, image] as const))(
    'builds %s from the runtime Dockerfile on its slim base, without a network',
    (python, image) => {
      const service = compose.services[`cpython-${python}`];
      expect(service?.image).toBe(image.tag);
      expect(service?.network_mode).toBe('none');
      expect(service?.build.context).toBe('runtimes/cpython');
      expect(service?.build.dockerfile).toBe('Dockerfile');
      expect(service?.build.network).toBe('none');
      expect(service?.build.args.PYTHON).toBe(python);
      expect(composeDefault(service?.build.args.BASE ?? '')).toBe(image.registryBase);
    },
  );
});

describe('runtime Dockerfile', () => {
  const dockerfile = readFileSync(sourceAsset('runtimes/cpython/Dockerfile'), 'utf8');

  it('takes the BASE and PYTHON arguments the compose file and provision pass', () => {
    expect(dockerfile).toMatch(/^ARG BASE=/m);
    expect(dockerfile).toMatch(/^FROM \$\{BASE\}$/m);
    expect(dockerfile).toMatch(/^ARG PYTHON=/m);
  });

  it('copies the guest where the container runtime looks for it, and runs as a non-root user', () => {
    expect(dockerfile).toContain(`COPY guest/ ${GUEST_DIR_IN_IMAGE}/`);
    expect(dockerfile).toMatch(/^USER concord:concord$/m);
  });
});
