import { DEFAULT_PYTHON_FLOOR, type PythonVersion } from '../../codemode/index.js';
import type { ToolDefinition } from '../../contract/backend.js';
import type { Language } from '../../runtimes/seam/types.js';
import { AppProbe, type ProbeView } from '../assembly/app-probe.js';
import type { ProbeTarget } from '../assembly/probe-targets.js';
import { namingProblems } from '../checks/sdk-names/naming.js';
import { type Finding, PROBE } from '../findings.js';
import { compileFromFloor, type FloorCell, interpreterName, rejectionPlace } from '../interpreters/from-floor.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import { DEFAULT_TOOLS_OBJECT, LANGUAGE_PACKS, type ScriptedProgram, type SdkNames } from '../languages/index.js';
import type { Session } from '../session.js';
import { exposure, windowTools } from '../skew/windows.js';
import { nameList } from '../text/name-list.js';
import { adversarialTools } from './adversarial-tools.js';

/** The probe's verdict for one language: which app rendered it, how each judge took it, how long it took. */
export interface ProbeVerdict {
  language: Language;
  /** The scenario whose app rendered the tool set, and the runtime it was booted on. */
  scenario: string;
  runtime: string;
  tools: number;
  /** Probe tools the app's registry refused (it has a tool of that name); its own stands in for them. */
  refused: string[];
  /** Python: one cell per interpreter from the floor up; TypeScript: one cell for the compiler. */
  cells: FloorCell[];
  /** Names collide or a tool is not reachable exactly once. */
  naming: string[];
  findings: Finding[];
  elapsedMs: number;
}

/** The TypeScript compiler as a cell of the probe's matrix. */
const TSC = { interpreter: 'tsc', version: 'TypeScript', detail: 'the TypeScript compiler, strict' } as const;

/**
 * The tool set of one language. Python also gets the letters past the floor: one tool per Unicode window,
 * and one whose object fields are named with them (class names are built from field names).
 */
export function probeTools(language: Language, floor: PythonVersion): ToolDefinition[] {
  return LANGUAGE_PROBES[language].tools(floor);
}

/** The Python probe's tools: the adversarial set, the letters past the floor, and fields named with them. */
function pythonProbeTools(floor: PythonVersion): ToolDefinition[] {
  const windows = windowTools(exposure(floor));
  const leaf = { type: 'object', properties: { leaf: { type: 'string' } } };
  const fields: ToolDefinition = {
    name: 'window_fields',
    description:
      'Fields named with letters the floor does not know; each holds an object, so class names are built from them.',
    parameters: { type: 'object', properties: Object.fromEntries(windows.map((w) => [w.name, leaf])) },
  };
  return adversarialTools(windows.length > 0 ? [...windows, fields] : []);
}

/** A program that reaches every tool by its exact name: strict TypeScript rejects a name `tools` lacks. */
function reachEveryTool(tools: readonly ToolDefinition[]): string {
  return tools.map((t) => `void tools[${JSON.stringify(t.name)}];`).join('\n');
}

/**
 * Renders the adversarial tool set through the project's own app once per language and judges what the
 * model would receive: names unique after the language's normalization and every probe tool reachable
 * exactly once; the Python SDK compiles on every interpreter from the floor up; the TypeScript SDK
 * type-checks with every tool reachable by its exact name. A failure names the tool (the one whose SDK,
 * rendered alone, fails the same judge), the interpreter, and the line and column. The compiler's verdict
 * comes from the session's cache when an earlier run judged the same SDK, as the interpreters' compiles do.
 */
export async function runProbe(
  targets: readonly ProbeTarget[],
  floor: PythonVersion,
  inventory: () => Promise<InterpreterInventory>,
  session: Session,
): Promise<ProbeVerdict | undefined> {
  const [first] = targets;
  if (first === undefined) return undefined;
  const started = performance.now();
  const language = first.runtime.language;
  const tools = probeTools(language, floor);
  const pack = LANGUAGE_PACKS[language];
  const verdict: ProbeVerdict = {
    language,
    scenario: first.scenario.name,
    runtime: first.runtime.name,
    tools: tools.length,
    refused: [],
    cells: [],
    naming: [],
    findings: [],
    elapsedMs: 0,
  };
  const fail = (message: string) =>
    verdict.findings.push({
      check: PROBE,
      severity: 'error',
      message: `${language} (the app of ${verdict.scenario} on ${verdict.runtime}): ${message}`,
    });
  let probe: AppProbe | undefined;
  try {
    const chosen = await chooseApp(targets, tools);
    if (chosen.probe === undefined || chosen.view?.sdk === undefined) {
      const section =
        chosen.problem === undefined
          ? ''
          : ` (the tools:sdk section of ${chosen.problem.where} ${chosen.problem.text})`;
      fail(
        chosen.why ??
          `no selected scenario sent the model an SDK block in a tools:sdk section${section}, so the probe could not judge the renderer`,
      );
      return verdict;
    }
    probe = chosen.probe;
    const view = chosen.view;
    Object.assign(verdict, { scenario: probe.scenario.name, runtime: probe.runtime.name });
    const sdk = view.sdk!;
    const refused = new Set(view.refused.map((r) => r.name));
    verdict.refused = view.refused.map((r) => r.name);
    const names = await pack.readNames(sdk, session, DEFAULT_TOOLS_OBJECT);
    verdict.naming = namingProblems(pack, names, {
      names: tools.filter((t) => !refused.has(t.name)).map((t) => t.name),
      complete: false,
    });
    for (const problem of verdict.naming) fail(`${pack.sdkFile}: ${problem}`);
    const solo = soloRenders(probe!, tools);
    await LANGUAGE_PROBES[language].judge({ sdk, tools, names, floor, inventory, solo, verdict, fail, session });
  } catch (error) {
    fail(`the probe could not run: ${(error as Error).message}`);
  } finally {
    await probe
      ?.dispose()
      .catch((error: unknown) => fail(`disposing the probe app failed: ${(error as Error).message}`));
    verdict.elapsedMs = performance.now() - started;
  }
  return verdict;
}

/** Apps tried before settling for one that already has some probe tool names. */
const MAX_CANDIDATES = 3;

/**
 * The app that speaks for the project: the first that sends an SDK (a native-only composition sends none)
 * and refuses no probe tool (none of its own tools shares a name with one); else the one refusing fewest.
 */
async function chooseApp(
  targets: readonly ProbeTarget[],
  tools: readonly ToolDefinition[],
): Promise<{ probe?: AppProbe; view?: ProbeView; why?: string; problem?: { where: string; text: string } }> {
  let best: { probe: AppProbe; view: ProbeView } | undefined;
  let why: string | undefined;
  let problem: { where: string; text: string } | undefined;
  for (const target of targets.slice(0, MAX_CANDIDATES)) {
    let probe: AppProbe | undefined;
    try {
      probe = await AppProbe.boot(target.scenario, target.runtime);
      const view = await probe.view(tools);
      if (view.sectionProblem !== undefined)
        problem ??= { where: `${target.scenario.name} on ${target.runtime.name}`, text: view.sectionProblem };
      if (view.sdk !== undefined && (best === undefined || view.refused.length < best.view.refused.length)) {
        const previous = best;
        best = { probe, view };
        probe = previous?.probe;
      }
    } catch (error) {
      why ??= `the app of ${target.scenario.name} on ${target.runtime.name} could not be probed: ${(error as Error).message}`;
    } finally {
      await probe?.dispose();
    }
    if (best?.view.refused.length === 0) break;
  }
  return best ?? { ...(why === undefined ? {} : { why }), ...(problem === undefined ? {} : { problem }) };
}

/** Each tool's SDK rendered alone, on demand and once: how a failure of the whole set is pinned on a tool. */
function soloRenders(
  probe: AppProbe,
  tools: readonly ToolDefinition[],
): () => Promise<Array<{ tool: string; sdk: string }>> {
  let rendered: Promise<Array<{ tool: string; sdk: string }>> | undefined;
  return () =>
    (rendered ??= (async () => {
      const out: Array<{ tool: string; sdk: string }> = [];
      for (const tool of tools) {
        const view = await probe.view([tool]);
        if (view.sdk !== undefined) out.push({ tool: tool.name, sdk: view.sdk });
      }
      return out;
    })());
}

/** The tools that fail a judge each alone, in the fewest words: one fault names every tool it hits. */
function culpritsOf(culprits: readonly string[]): string {
  if (culprits.length === 0) return 'no tool alone: only the whole set';
  return culprits.length === 1 ? `the tool ${culprits[0]}` : `the tools ${nameList(culprits)}`;
}

/** What a language's judge of the probe's SDK is given. */
interface ProbeJudging {
  sdk: string;
  tools: readonly ToolDefinition[];
  names: SdkNames;
  floor: PythonVersion;
  inventory: () => Promise<InterpreterInventory>;
  /** Each tool's SDK rendered alone, to pin a failure of the whole set on the tools that fail alone. */
  solo: () => Promise<Array<{ tool: string; sdk: string }>>;
  verdict: ProbeVerdict;
  fail: (message: string) => void;
  session: Session;
}

/** How the probe's SDK is judged in each language: the interpreters from the floor up, or the compiler. */
const LANGUAGE_PROBES: {
  readonly [L in Language]: { tools(floor: PythonVersion): ToolDefinition[]; judge(j: ProbeJudging): Promise<void> };
} = {
  typescript: { tools: () => adversarialTools(), judge: judgeTypeScript },
  python: { tools: pythonProbeTools, judge: judgePython },
};

async function judgePython({ sdk, floor, inventory: inventoryOf, solo, verdict, fail }: ProbeJudging): Promise<void> {
  const inventory = await inventoryOf();
  const [cells = []] = await compileFromFloor(inventory, floor, [sdk]);
  verdict.cells = cells;
  if (cells.length === 0)
    fail(
      `no Python interpreter at or above the floor ${floor} is available (${inventory.absent.join('; ') || 'none found'})`,
    );
  const failing = cells.filter((c) => c.outcome !== 'ok');
  if (failing.length === 0) return;
  const alone = await solo();
  const soloRows = await compileFromFloor(
    inventory,
    floor,
    alone.map((s) => s.sdk),
  );
  for (const cell of failing) {
    if (cell.outcome === 'unavailable') {
      fail(`${interpreterName(cell)} could not compile tools-sdk.py: ${cell.error}`);
      continue;
    }
    const column = soloRows[0]?.findIndex((c) => c.interpreter === cell.interpreter) ?? -1;
    const culprits = alone.flatMap((s, i) => {
      const own = soloRows[i]?.[column];
      return own?.outcome === 'rejected' ? [`${JSON.stringify(s.tool)} (alone: ${rejectionPlace(own)})`] : [];
    });
    const who = culpritsOf(culprits);
    const at = cell.line === undefined ? '' : `, at ${rejectionPlace(cell)}`;
    fail(`tools-sdk.py does not compile on ${interpreterName(cell)}${at}; it fails for ${who}: ${cell.error}`);
  }
}

async function judgeTypeScript({ sdk, tools, names, solo, verdict, fail, session }: ProbeJudging): Promise<void> {
  // A tool the SDK does not name at all is a naming problem: the compiler would only say it again.
  const named = new Set(names.reaches.flatMap((r) => r.reaches ?? []));
  const program = { call: 1, line: 1, code: reachEveryTool(tools) };
  const check = (code: string, programs: ScriptedProgram[]) =>
    LANGUAGE_PACKS.typescript.typeChecker.check(session, code, programs, DEFAULT_PYTHON_FLOOR);
  const errors = (await check(sdk, [program])).filter((d) => d.severity === 'error');
  verdict.cells = [
    {
      ...TSC,
      outcome: errors.length === 0 ? 'ok' : 'rejected',
      ...(errors.length > 0 ? { error: errors.map((e) => e.message).join('\n') } : {}),
    },
  ];
  if (errors.length === 0) return;
  const alone = await solo();
  // A diagnostic inside the program names the tool it could not reach: line n reaches tool n.
  const reachedOnLine = errors.flatMap((error) => {
    const tool = error.program !== undefined && error.line !== undefined ? tools[error.line - 1]?.name : undefined;
    return tool === undefined ? [] : [{ tool, error }];
  });
  const unreached = reachedOnLine.filter(({ tool }) => named.has(tool));
  const flat = (message: string) => message.replace(/\n\s*/g, '; ');
  const first = unreached[0];
  // Tools the SDK gives no way to reach are one fault, said once with their names.
  if (unreached.length === 1 && first !== undefined)
    fail(
      `tools-sdk.ts gives no way to reach the tool ${JSON.stringify(first.tool)} (tsc, line ${first.error.line}, column ${first.error.column}): ${flat(first.error.message)}`,
    );
  if (unreached.length > 1 && first !== undefined)
    fail(
      `tools-sdk.ts gives no way to reach ${unreached.length} tools (tsc): ${nameList(unreached.map(({ tool }) => JSON.stringify(tool)))}; the first (line ${first.error.line}, column ${first.error.column}): ${flat(first.error.message)}`,
    );
  for (const error of errors) {
    if (reachedOnLine.some((u) => u.error === error)) continue;
    const culprits: string[] = [];
    for (const s of alone)
      if ((await check(s.sdk, [])).some((d) => d.severity === 'error')) culprits.push(JSON.stringify(s.tool));
    fail(`tools-sdk.ts does not type-check (tsc): ${flat(error.message)}; it fails for ${culpritsOf(culprits)}`);
  }
}
