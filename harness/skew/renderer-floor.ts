import type { PythonVersion } from '../../codemode/index.js';
import { probeOnce } from '../assembly/app-probe.js';
import type { ProbeTarget } from '../assembly/probe-targets.js';
import type { Finding } from '../checks/types.js';
import { compileFromFloor, interpreterName } from '../interpreters/from-floor.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import { bareFixtureNames, showBare } from './measure-skew.js';
import { exposure, windowTools } from './windows.js';

const ID = 'renderer-floor';

export interface RendererFloorResult {
  findings: Array<Finding & { scenario?: string }>;
  /** Wall time of the whole step (boots, renders, compiles), in milliseconds. */
  elapsedMs: number;
  /** How many of the targets' apps rendered the fixture (the others could not boot or render: a note each). */
  rendered: number;
}

/**
 * For the gate, once per run: each target's own app renders the Unicode-window fixture (one tool per
 * Unicode version past the floor's, registered through `ctx.tools.register`), and the SDK the model would
 * receive must list every fixture name for subscript access and compile on the floor interpreter and every
 * one above it. A renderer not pinned to the floor is named with the interpreter, line and column.
 */
export async function rendererFloorFindings(
  targets: readonly ProbeTarget[],
  floor: PythonVersion,
  inventory: () => Promise<InterpreterInventory>,
): Promise<RendererFloorResult> {
  const started = performance.now();
  const found = exposure(floor);
  const tools = windowTools(found);
  const findings: RendererFloorResult['findings'] = [];
  const rendered: Array<{ target: ProbeTarget; sdk: string }> = [];
  for (const target of targets) {
    const { scenario, runtime } = target;
    const where = `${scenario.name} (${scenario.file}, on ${runtime.name})`;
    try {
      const view = await probeOnce(scenario, runtime, tools);
      if (view.sdk === undefined) continue;
      rendered.push({ target, sdk: view.sdk });
      const bare = bareFixtureNames(
        view.sdk,
        tools.map((t) => t.name),
      );
      if (bare.length > 0) {
        findings.push({
          check: ID,
          scenario: scenario.name,
          severity: 'error',
          message: `${where}: the Python renderer is not pinned to the floor ${floor}: it writes ${showBare(bare)} of tools-sdk.py as bare methods, which CPython ${floor} (Unicode ${found.floorUnicode}) cannot read (run \`concord skew --floor ${floor} --scenario ${scenario.name}\`)`,
        });
      }
    } catch (error) {
      findings.push({
        check: ID,
        scenario: scenario.name,
        severity: 'note',
        message: `${where}: the app could not render the floor fixture: ${(error as Error).message}`,
      });
    }
  }
  if (rendered.length > 0) {
    const rows = await compileFromFloor(
      await inventory(),
      floor,
      rendered.map((r) => r.sdk),
    );
    rows.forEach((cells, i) => {
      const { scenario, runtime } = rendered[i]!.target;
      // Interpreters that fail alike (the same name past their Unicode, the same line) are one finding naming them all.
      const alike = new Map<string, { rejected: boolean; error: string; names: string[] }>();
      for (const cell of cells) {
        if (cell.outcome === 'ok') continue;
        const error = cell.error ?? '';
        const key = `${cell.outcome}\0${error}`;
        alike.set(key, {
          rejected: cell.outcome === 'rejected',
          error,
          names: [...(alike.get(key)?.names ?? []), interpreterName(cell)],
        });
      }
      for (const { rejected, error, names } of alike.values()) {
        const what = `${rejected ? 'does not compile' : 'could not be compiled'} on ${names.join(', ')}: ${error}`;
        findings.push({
          check: ID,
          scenario: scenario.name,
          severity: 'error',
          message: `${scenario.name} (${scenario.file}, on ${runtime.name}): the floor fixture's tools-sdk.py ${what}`,
        });
      }
    });
    if (rows[0]?.length === 0)
      findings.push({
        check: ID,
        severity: 'error',
        message: `no Python interpreter at or above the floor ${floor} is available to compile the floor fixture`,
      });
  }
  return { findings, elapsedMs: performance.now() - started, rendered: rendered.length };
}
