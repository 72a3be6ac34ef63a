import { DEFAULT_PYTHON_FLOOR, parseToolsConfig } from '../../codemode/tools/config.js';
import type { PythonVersion } from '../../codemode/tools/types.js';
import type { Finding } from '../checks/types.js';
import { RUNTIME_LANGUAGE, type Scenario } from '../scenario/types.js';
import { bareNamesAt, type PythonRenderer } from './probe.js';

const ID = 'renderer-floor';

/** The tool registry plugin: its `pythonFloor` is the floor the renderer writes the Python SDK for. */
const TOOLS_PLUGIN = 'concord/tools';

/**
 * The floor a scenario's composition hands the renderer (the tools entry's `pythonFloor`, default 3.9).
 * A config the registry would reject yields the default: that scenario fails to boot with its own message.
 */
export function rendererFloorOf(scenario: Pick<Scenario, 'composition'>): PythonVersion {
  const entry = scenario.composition.find((e) => e.plugin === TOOLS_PLUGIN);
  try {
    return parseToolsConfig(entry?.config ?? { mode: 'code' }).pythonFloor;
  } catch {
    return DEFAULT_PYTHON_FLOOR;
  }
}

/**
 * For the gate, once per run: an error for each scenario with a Python runtime whose renderer floor differs
 * from the configured floor, and one if the renderer, asked for the configured floor, still writes a name
 * the floor cannot read (it would not be pinned). No interpreter runs; about a second of table scanning.
 */
export function rendererFloorFindings(
  scenarios: readonly Scenario[],
  configuredFloor: PythonVersion,
  render?: PythonRenderer,
): Array<Finding & { scenario?: string }> {
  const findings: Array<Finding & { scenario?: string }> = [];
  for (const scenario of scenarios) {
    if (!scenario.runtimes.some((r) => RUNTIME_LANGUAGE[r] === 'python')) continue;
    const floor = rendererFloorOf(scenario);
    if (floor === configuredFloor) continue;
    const entry = scenario.composition.find((e) => e.plugin === TOOLS_PLUGIN);
    const where = entry ? `${scenario.file}:${entry.line} (entry "${entry.id}")` : scenario.file;
    findings.push({
      check: ID,
      scenario: scenario.name,
      severity: 'error',
      message: `${scenario.name}: the renderer writes the Python SDK for CPython ${floor}, but the configured floor is ${configuredFloor}; set pythonFloor: '${configuredFloor}' in ${where}`,
    });
  }
  const bare = bareNamesAt(configuredFloor, render);
  if (bare.length > 0) {
    findings.push({
      check: ID,
      severity: 'error',
      message: `the Python renderer is not pinned to the floor ${configuredFloor}: asked for ${configuredFloor}, it writes ${bare.join(', ')} as bare methods, which CPython ${configuredFloor} cannot read (run \`concord skew --floor ${configuredFloor}\`)`,
    });
  }
  return findings;
}
