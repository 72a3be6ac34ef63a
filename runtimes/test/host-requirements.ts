import { describe, expect, it } from 'vitest';

/** `CI` set to anything but empty, `false` or `0` (CI runs as root, with util-linux, and must test all of this). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * A block of tests that needs something of the host (root, namespaces, a cgroup). Where it is there, the
 * tests run. Where it is `missing`, they skip locally with the reason in their title; under CI they fail,
 * naming it, because CI is where every guard must be shown to hold.
 */
export function describeNeeding(missing: string | undefined, title: string, body: () => void): void {
  if (missing === undefined) {
    describe(title, body);
  } else if (inCi()) {
    describe(title, () => {
      it('has what these tests need (CI must provide it)', () => {
        expect.fail(`${title}: cannot run here: ${missing}`);
      });
    });
  } else {
    describe.skip(`${title} (skipped: ${missing})`, body);
  }
}
