import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isScenarioFile, loadScenario } from './load.js';
import type { Scenario } from './types.js';

/** Loads every scenario file in `dir`; the first bad file stops the run with its InputError. */
export async function loadScenarios(dir: string): Promise<Scenario[]> {
  const names = (await readdir(dir)).filter(isScenarioFile).sort();
  const scenarios: Scenario[] = [];
  for (const name of names) scenarios.push(await loadScenario(join(dir, name)));
  return scenarios;
}
