import { RUNTIMES, unavailableRuntimes } from '../assembly/runtimes.js';
import type { Pair } from '../pairs/select.js';
import type { RuntimeName } from '../runtime-names.js';
import { snapshotFolders } from '../snapshot/store.js';

/** What becomes of every pair of a runtime that does not run: skipped, or failed (an unchecked snapshot in CI). */
export interface NotRun {
  status: 'skipped' | 'failed';
  reason: string;
}

export interface AvailabilityOptions {
  pairs: readonly Pair[];
  /** `--skip-runtime`: runtimes the user opted out of, explicitly. */
  skip: readonly RuntimeName[];
  ci: boolean;
  snapshotsDir: string;
  /** Runtimes the run asked for by name (`--runtime`, the config's `runtimes:`); a scenario's own list counts too. */
  named: readonly RuntimeName[] | undefined;
  out(line: string): void;
}

export interface Availability {
  notRun: Map<RuntimeName, NotRun>;
  /**
   * Runtimes that were only there by default (no list names them, none of their snapshots is committed) and cannot
   * run here: left out of the run without a word, so a first gate on a machine without them is plainly green.
   */
  leftOut: RuntimeName[];
}

/**
 * The runtimes of the run that will not run, each said once. A runtime that cannot run here while the
 * selection has committed snapshots for it fails the gate in CI (those snapshots would go unchecked) and
 * warns locally; `--skip-runtime` is the explicit way out, and is said as plainly. One that nothing named and
 * nothing committed is left out.
 */
export async function runtimesNotRun(options: AvailabilityOptions): Promise<Availability> {
  const { pairs, skip, ci, out } = options;
  const named = (runtime: RuntimeName) =>
    options.named?.includes(runtime) === true ||
    pairs.some((p) => p.runtime === runtime && p.scenario.runtimesListed !== false);
  const wanted = [...new Set(pairs.map((p) => p.runtime))];
  const committed = new Set(await snapshotFolders(options.snapshotsDir));
  const unchecked = (runtime: RuntimeName) =>
    pairs.filter((p) => p.runtime === runtime && committed.has(`${p.scenario.name}/${runtime}`)).length;
  const unavailable = await unavailableRuntimes(wanted.filter((runtime) => !skip.includes(runtime)));
  const notRun = new Map<RuntimeName, NotRun>();
  const leftOut: RuntimeName[] = [];
  for (const runtime of wanted) {
    const snapshots = unchecked(runtime);
    const left = snapshots > 0 ? `; ${snapshots} committed snapshot folder(s) of it are not checked` : '';
    if (skip.includes(runtime)) {
      const reason = `${runtime} skipped by --skip-runtime${left}`;
      notRun.set(runtime, { status: 'skipped', reason });
      out(reason);
      continue;
    }
    const why = unavailable.get(runtime);
    if (why === undefined) {
      const note = RUNTIMES[runtime].availableNote;
      if (note !== undefined) out(`${runtime}: ${note}`);
      continue;
    }
    const optOut = `or pass --skip-runtime ${runtime} to leave it out on purpose`;
    if (snapshots === 0 && !named(runtime)) {
      leftOut.push(runtime);
    } else if (snapshots === 0) {
      const reason = `${runtime} skipped: ${why}`;
      notRun.set(runtime, { status: 'skipped', reason });
      out(reason);
    } else if (ci) {
      const reason = `${runtime} cannot run here, and ${snapshots} committed snapshot folder(s) of it would go unchecked: ${why} (${optOut})`;
      notRun.set(runtime, { status: 'failed', reason });
      out(`error: ${reason}`);
    } else {
      const reason = `${runtime} skipped on this machine: ${why} (${snapshots} committed snapshot folder(s) of it are not checked; CI fails on this; ${optOut})`;
      notRun.set(runtime, { status: 'skipped', reason });
      out(`warning: ${reason}`);
    }
  }
  return { notRun, leftOut };
}
