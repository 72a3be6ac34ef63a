import type { PythonVersion } from '../../codemode/index.js';
import type { ToolDefinition } from '../../contract/backend.js';
import { describeRejection } from '../interpreters/describe.js';
import { compileFromFloor, type FloorCell } from '../interpreters/from-floor.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import { compareVersions, type PythonInterpreter } from '../interpreters/types.js';
import { pythonSdkNames } from '../languages/python/names.js';
import { nameList } from '../text/name-list.js';
import { type Exposure, exposure, windowTools } from './windows.js';

/** Where a Python SDK comes from: the project's own app (a test may hand in any renderer). */
export interface SdkSource {
  /** Says which app rendered it, e.g. `scenario exotic-names on python`. */
  name: string;
  /** The Python `tools:sdk` block the model receives with `tools` registered; undefined when it sends none. */
  render(tools: readonly ToolDefinition[]): Promise<string | undefined>;
}

export interface FloorInterpreter {
  label: string;
  detail: string;
  /** Why this one: the floor itself, or the nearest Pyodide and what that means. */
  why: string;
  /** Whether it is the floor version itself: only then is its verdict the floor's. */
  exact: boolean;
  python?: string;
  unicode?: string;
  /** The fixture names written bare by hand: `ok`, or the rejection that shows the floor cannot read them. */
  contrast?: string;
  /** Why it could not compile at all. */
  error?: string;
}

/** A fixture name the renderer wrote as a bare method, and where in the SDK. */
export interface BareName {
  name: string;
  line: number;
  column: number;
}

export interface SkewReport extends Exposure {
  interpreters: Array<{ label: string; version: string; unicode: string; detail: string }>;
  absent: string[];
  /** The app that rendered the fixture. */
  app: string;
  /** The fixture: one tool per window. */
  tools: string[];
  /** The SDK the app rendered for the fixture; absent when it sent no `tools:sdk` section. */
  sdk?: string;
  /** Fixture names the renderer wrote as bare methods (none when it is pinned to the floor). */
  bareAtFloor: BareName[];
  /** The floor interpreter; absent when nothing at or near the floor exists. */
  floorInterpreter?: FloorInterpreter;
  /** The fixture SDK on the floor interpreter and every interpreter above it. */
  compiled: FloorCell[];
  /** True when no window name is bare and no interpreter from the floor up rejects the SDK. */
  pinned: boolean;
}

/** Fixture names written as methods of `Tools` (a bare attribute) rather than listed for subscript access. */
export function bareFixtureNames(sdk: string, names: readonly string[]): BareName[] {
  const wanted = new Set(names);
  return pythonSdkNames(sdk)
    .reaches.filter((r) => r.how === 'method' && wanted.has(r.spelled))
    .map((r) => ({ name: r.spelled, line: r.line, column: r.column }));
}

/** `ꟑ_unicode_14_0 (line 57, column 15)`, …: the first few, then how many more. */
export function showBare(bare: readonly BareName[]): string {
  return nameList(bare.map((b) => `${b.name} (line ${b.line}, column ${b.column})`));
}

/** The interpreter that speaks for the floor: a local one, else a container, else the nearest Pyodide. */
export function floorInterpreterOf(
  inventory: InterpreterInventory,
  floor: PythonVersion,
): { interpreter: PythonInterpreter; why: string; exact: boolean } | undefined {
  for (const kind of ['local', 'container'] as const) {
    const exact = inventory.interpreters.find((i) => i.kind === kind && i.version === floor);
    if (exact)
      return {
        interpreter: exact,
        why: `the floor itself, ${kind === 'local' ? 'a local interpreter' : 'the runtime container image'}`,
        exact: true,
      };
  }
  const distance = (i: PythonInterpreter) => Math.abs(Number(i.version.split('.')[1]) - Number(floor.split('.')[1]));
  const nearest = inventory.interpreters
    .filter((i) => i.kind === 'pyodide')
    .sort((a, b) => distance(a) - distance(b) || compareVersions(b.version, a.version))[0];
  if (nearest === undefined) return undefined;
  if (nearest.version === floor) return { interpreter: nearest, why: 'the floor itself, in Pyodide', exact: true };
  return {
    interpreter: nearest,
    why: `no local ${floor} and no container image for it: the nearest Pyodide, CPython ${nearest.version} (Unicode ${nearest.unicode}, not the floor's ${exposure(floor).floorUnicode}), so its verdict only approximates the floor's`,
    exact: false,
  };
}

/** Each fixture name as a bare module-level name: what the floor interpreter must reject for the skew to be real. */
function contrastSource(names: readonly string[]): string {
  return names.map((name) => `${name} = None\n`).join('');
}

/**
 * Measures the Unicode skew between this Node and the floor CPython, and whether the app's Python renderer
 * is pinned to the floor: the fixture (one tool per window) goes through `source`, and the SDK that comes
 * back is compiled on the floor interpreter and every one above it; a hand-written contrast with the names
 * bare shows what the floor interpreter makes of them.
 */
export async function measureSkew(
  floor: PythonVersion,
  inventory: InterpreterInventory,
  source: SdkSource,
): Promise<SkewReport> {
  const found = exposure(floor);
  const tools = windowTools(found);
  const names = tools.map((t) => t.name);
  const sdk = await source.render(tools);
  const bareAtFloor = sdk === undefined ? [] : bareFixtureNames(sdk, names);
  const report: SkewReport = {
    ...found,
    interpreters: inventory.interpreters.map(({ label, version, unicode, detail }) => ({
      label,
      version,
      unicode,
      detail,
    })),
    absent: [...inventory.absent],
    app: source.name,
    tools: names,
    ...(sdk !== undefined ? { sdk } : {}),
    bareAtFloor,
    compiled: [],
    pinned: sdk !== undefined && bareAtFloor.length === 0,
  };
  if (sdk === undefined) return report;
  const [compiled = []] = await compileFromFloor(inventory, floor, [sdk]);
  report.compiled = compiled;
  if (compiled.some((c) => c.outcome === 'rejected')) report.pinned = false;

  const chosen = floorInterpreterOf(inventory, floor);
  if (chosen === undefined || names.length === 0) return report;
  const { interpreter, why, exact } = chosen;
  const floorInterpreter: FloorInterpreter = { label: interpreter.label, detail: interpreter.detail, why, exact };
  report.floorInterpreter = floorInterpreter;
  const contrast = contrastSource(names);
  try {
    const { python, unicode, results } = await inventory.compileOn(interpreter, [contrast]);
    const outcome = results[0]!;
    Object.assign(floorInterpreter, {
      python,
      unicode,
      contrast: outcome.ok ? 'ok' : describeRejection(outcome, contrast),
    });
  } catch (error) {
    floorInterpreter.error = (error as Error).message;
  }
  return report;
}
