import type { FileStatus } from './store.js';

/** What `--update` asks for: write nothing, only files that are missing, or every difference. */
export type UpdateMode = 'none' | 'new' | 'all';

/** How a run treats differences: what `--update` asks for, and whether `CI` is set (then nothing is written). */
export interface WritePolicy {
  update: UpdateMode;
  ci: boolean;
}

/**
 * What becomes of one snapshot file (or an obsolete folder) whose run succeeded: `keep` it as it is, `write`
 * the difference under `snapshots/`, or `propose` it in the pending folder for `concord review`. The one
 * place where the update mode and CI meet: with `CI` set nothing under `snapshots/` is written, whatever
 * `--update` says. A run that failed is never written nor proposed; the caller decides that before asking.
 */
export type Decision = 'keep' | 'write' | 'propose';

export function decide(status: FileStatus, { update, ci }: WritePolicy): Decision {
  if (status === 'same') return 'keep';
  if (ci) return 'propose';
  if (update === 'all') return 'write';
  if (update === 'new' && status === 'new') return 'write';
  return 'propose';
}

/**
 * Whether a run with these settings writes every difference in place (so changes and obsolete folders do not fail it).
 */
export function writesEverything(policy: WritePolicy): boolean {
  return decide('changed', policy) === 'write' && decide('obsolete', policy) === 'write';
}
