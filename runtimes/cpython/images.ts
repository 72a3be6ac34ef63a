import { PYTHON_FLOOR } from '../seam/python-floor.js';

/**
 * The CPython runtime images concord supports: one per interpreter version, each built from
 * `runtimes/cpython/Dockerfile` on a base image. Where a registry answers the base is the official
 * `python:3.X-slim`; elsewhere it is a Debian root filesystem from the suite that ships that interpreter.
 */

export type DebianSuite = 'bullseye' | 'bookworm' | 'trixie' | 'sid';

export interface CpythonImage {
  /** Interpreter version, `major.minor`. */
  readonly python: string;
  /** Runtime image tag, e.g. `concord-cpython:3.9`. */
  readonly tag: string;
  /** BASE build argument where a registry answers. */
  readonly registryBase: string;
  /** Debian suite whose archive ships this interpreter. */
  readonly suite: DebianSuite;
  /** Debian package that installs `python3.X` with the full standard library (not the `-minimal` one). */
  readonly debianPackage: string;
  /** BASE build argument when the base is imported from a debootstrap root filesystem. */
  readonly debianBase: string;
}

/** Where the Dockerfile copies `runtimes/cpython/guest/` inside every runtime image. */
export const GUEST_DIR_IN_IMAGE = '/opt/concord/guest';

/** Image label holding the hash of the Dockerfile and guest files an image was built from. */
export const CONTENT_HASH_LABEL = 'org.concord.content-hash';

/** Debian archive the base root filesystems come from. */
export const DEBIAN_MIRROR = 'http://deb.debian.org/debian';

export function debianBaseTag(suite: DebianSuite): string {
  return `concord-debian-${suite}:base`;
}

function image(python: string, suite: DebianSuite): CpythonImage {
  return {
    python,
    tag: `concord-cpython:${python}`,
    registryBase: `python:${python}-slim`,
    suite,
    debianPackage: `python${python}`,
    debianBase: debianBaseTag(suite),
  };
}

/** Supported images, oldest first; the first is the floor. */
export const CPYTHON_IMAGES: readonly CpythonImage[] = Object.freeze([
  image('3.9', 'bullseye'),
  image('3.11', 'bookworm'),
  image('3.13', 'trixie'),
  image('3.14', 'sid'),
]);

/** The image of one interpreter version; an unknown version fails naming the supported ones. */
export function cpythonImage(python: string): CpythonImage {
  const found = CPYTHON_IMAGES.find((candidate) => candidate.python === python);
  if (found === undefined) {
    const known = CPYTHON_IMAGES.map((candidate) => candidate.python).join(', ');
    throw new Error(`concord: no CPython runtime image for ${JSON.stringify(python)}; supported versions: ${known}`);
  }
  return found;
}

/** The image of the floor CPython: the container runtime's default. */
export const FLOOR_IMAGE = cpythonImage(PYTHON_FLOOR).tag;
