import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RootError } from '../user-error.js';
import { InputError } from './error.js';
import { isScenarioFile, loadScenario } from './load.js';
import { resolveComposition } from './plugins.js';
import type { Scenario } from './types.js';

/**
 * Loads every scenario file in `dir`; the first bad file stops the run with its InputError. A folder that
 * is missing or holds no scenario is a RootError: the gate was pointed at the wrong project. Every file must
 * really lie inside `root` (a link out of it is refused), and every plugin reference is resolved against
 * `root` before anything boots.
 */
export async function loadScenarios(dir: string, root: string = dirname(dir)): Promise<Scenario[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    entries = [];
  }
  const names = entries.filter(isScenarioFile).sort();
  if (names.length === 0)
    throw new RootError(
      `no scenarios in ${dir}`,
      'run `concord init --plugin ./src/plugins/<your-tools>.ts` to write one wired to your tool plugin, or pass --root with the folder that holds scenarios/',
    );
  // x.yml and x.yaml would both claim the scenario x and write over each other's snapshots.
  const byName = new Map<string, string>();
  for (const name of names) {
    const scenario = name.replace(/\.ya?ml$/, '');
    const first = byName.get(scenario);
    if (first !== undefined)
      throw new InputError(
        join(dir, name),
        1,
        1,
        `declares the scenario ${JSON.stringify(scenario)}, and so does ${join(dir, first)}`,
        `keep one of ${first} and ${name}`,
      );
    byName.set(scenario, name);
  }
  const scenarios: Scenario[] = [];
  for (const name of names) scenarios.push(resolveComposition(await loadScenario(join(dir, name), root), root));
  return scenarios;
}
