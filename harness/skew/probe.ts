import { renderSdk } from '../../codemode/run-code/sdk-section.js';
import { SUPPORTED_PYTHON_VERSIONS, unicodeTableOf } from '../../codemode/sdk/identifiers/versions.js';
import type { PythonVersion, ToolDefinition } from '../../codemode/tools/types.js';
import { describeRejection } from '../interpreters/describe.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import { compareVersions, type PythonInterpreter } from '../interpreters/types.js';
import { exposure, windowToolName, type Exposure } from './windows.js';

export interface FloorInterpreter {
  label: string;
  detail: string;
  /** Why this one: the floor itself, or the nearest Pyodide and what that means. */
  why: string;
  /** Measured by the compile batch. */
  python?: string;
  unicode?: string;
  /** Whether it is the floor version itself: only then is its verdict the floor's. */
  exact: boolean;
  /** Each SDK's outcome: `ok` or the error with line and column. */
  pinned?: string;
  unpinned?: string;
  /** Why it could not compile at all. */
  error?: string;
}

export interface SkewReport extends Exposure {
  interpreters: Array<{ label: string; version: string; unicode: string; detail: string }>;
  absent: string[];
  /** The fixture: one tool per window. */
  tools: string[];
  /** Fixture names the renderer wrote as bare methods at the floor (none when it is pinned). */
  bareAtFloor: string[];
  /** Fixture names bare when rendered with Node's tables: what an unpinned renderer would write. */
  bareUnpinned: string[];
  /** The floor interpreter and its verdicts; absent when nothing at or near the floor exists. */
  floorInterpreter?: FloorInterpreter;
  /** True when no window name is bare at the floor and the floor interpreter (when exact) compiles the SDK. */
  pinned: boolean;
}

/** How the probe renders the Python SDK for a floor; the real renderer unless a test swaps it. */
export type PythonRenderer = (tools: readonly ToolDefinition[], floor: PythonVersion) => string;

const renderPython: PythonRenderer = (tools, floor) => renderSdk('python', tools, { pythonFloor: floor });

function fixtureTools(found: Exposure): ToolDefinition[] {
  return found.windows.map((w) => ({
    name: windowToolName(w),
    description: `A name whose first letter arrived in Unicode ${w.unicode} (CPython ${w.firstPython}+).`,
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  }));
}

/** Names written as `async def name(` (a bare attribute) rather than listed for subscript access. */
function bareMethods(sdk: string, names: readonly string[]): string[] {
  return names.filter((name) => sdk.includes(`async def ${name}(`));
}

/**
 * The fixture names (one per window past `floor`) that the Python renderer, asked for `floor`, writes as bare
 * methods: empty when the renderer is pinned to the floor. Cheap: nothing is compiled.
 */
export function bareNamesAt(floor: PythonVersion, render: PythonRenderer = renderPython): string[] {
  const tools = fixtureTools(exposure(floor));
  return bareMethods(render(tools, floor), tools.map((t) => t.name));
}

/** The interpreter that speaks for the floor: a local one, else a container, else the nearest Pyodide. */
export function floorInterpreterOf(inventory: InterpreterInventory, floor: PythonVersion): { interpreter: PythonInterpreter; why: string; exact: boolean } | undefined {
  for (const kind of ['local', 'container'] as const) {
    const exact = inventory.interpreters.find((i) => i.kind === kind && i.version === floor);
    if (exact) return { interpreter: exact, why: `the floor itself, ${kind === 'local' ? 'a local interpreter' : 'the runtime container image'}`, exact: true };
  }
  const distance = (i: PythonInterpreter) => Math.abs(Number(i.version.split('.')[1]) - Number(floor.split('.')[1]));
  const nearest = inventory.interpreters.filter((i) => i.kind === 'pyodide').sort((a, b) => distance(a) - distance(b) || compareVersions(b.version, a.version))[0];
  if (nearest === undefined) return undefined;
  if (nearest.version === floor) return { interpreter: nearest, why: 'the floor itself, in Pyodide', exact: true };
  return {
    interpreter: nearest,
    why: `no local ${floor} and no container image for it: the nearest Pyodide, CPython ${nearest.version} (Unicode ${nearest.unicode}, not the floor's ${unicodeTableOf(floor).version}), so its verdict only approximates the floor's`,
    exact: false,
  };
}

/** The Python version whose tables match this Node's: what a renderer that ignored the floor would use. */
function nodePython(found: Exposure): PythonVersion {
  return SUPPORTED_PYTHON_VERSIONS.find((p) => unicodeTableOf(p).version === found.nodeTable) ?? SUPPORTED_PYTHON_VERSIONS.at(-1)!;
}

/**
 * Measures the Unicode skew between this Node and the floor CPython, and whether the Python renderer is
 * pinned to the floor: the fixture (one tool per window) is rendered at the floor and, for contrast, with
 * Node's tables; both SDKs are compiled in one batch by the floor interpreter.
 */
export async function measureSkew(floor: PythonVersion, inventory: InterpreterInventory, render: PythonRenderer = renderPython): Promise<SkewReport> {
  const found = exposure(floor);
  const tools = fixtureTools(found);
  const names = tools.map((t) => t.name);
  const pinnedSdk = render(tools, floor);
  const unpinnedSdk = renderPython(tools, nodePython(found));
  const bareAtFloor = bareMethods(pinnedSdk, names);
  const report: SkewReport = {
    ...found,
    interpreters: inventory.interpreters.map(({ label, version, unicode, detail }) => ({ label, version, unicode, detail })),
    absent: [...inventory.absent],
    tools: names,
    bareAtFloor,
    bareUnpinned: bareMethods(unpinnedSdk, names),
    pinned: bareAtFloor.length === 0,
  };
  const chosen = floorInterpreterOf(inventory, floor);
  if (chosen === undefined) return report;
  const { interpreter, why, exact } = chosen;
  const floorInterpreter: FloorInterpreter = { label: interpreter.label, detail: interpreter.detail, why, exact };
  report.floorInterpreter = floorInterpreter;
  try {
    const compiled = await inventory.compileOn(interpreter, [pinnedSdk, unpinnedSdk]);
    const [pinned, unpinned] = compiled.results.map((r, i) => (r.ok ? 'ok' : describeRejection(r, i === 0 ? pinnedSdk : unpinnedSdk)));
    Object.assign(floorInterpreter, { python: compiled.python, unicode: compiled.unicode, pinned, unpinned });
    if (exact && pinned !== 'ok') report.pinned = false;
  } catch (error) {
    floorInterpreter.error = (error as Error).message;
  }
  return report;
}
