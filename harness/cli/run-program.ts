import { NATIVE_DEPTH_LIMIT, nestsDeeperThan, toJsonText } from '../../runtimes/seam/json.js';
import { RuntimeOptionError } from '../../runtimes/seam/options.js';
import type { BindingFunction, BindingNamespace, CodeRuntime, RunResult } from '../../runtimes/seam/types.js';
import { RUNTIMES, type RuntimeEntry } from '../assembly/runtimes.js';
import { readNamedInput } from '../guarded/read-regular.js';
import { runInApp } from '../pairs/run-in-app.js';
import { onScenarioPair } from '../pairs/scenario-pair.js';
import type { Project } from '../project/root.js';
import { RUNTIME_NAMES, type RuntimeName } from '../runtime-names.js';
import { UserError } from '../user-error.js';

/** What `concord run` does once its options are parsed (the command is declared in `commands/run.ts`). */

export interface RunOptions {
  runtime: string;
  tools?: string;
  /** Run inside this scenario's app (its assembly or host), with its own tools bound. */
  scenario?: string;
  timeoutMs?: number;
  root?: string;
}

/** Names `--runtime` took before it spoke the gate's names; still accepted, with a note. */
const OLD_NAMES: Readonly<Record<string, RuntimeName>> = { 'python-process': 'python' };

/** `NAME` or `NAME:3.X`, as the runtime table knows them; resolves the old spelling with a note on stderr. */
function parseRuntime(
  spec: string,
  note: (line: string) => void,
): { name: RuntimeName; entry: RuntimeEntry; version?: string } {
  const [written = '', version, ...rest] = spec.split(':');
  const renamed = Object.hasOwn(OLD_NAMES, written) ? OLD_NAMES[written]! : undefined;
  const name = renamed ?? (RUNTIME_NAMES as readonly string[]).find((known) => known === written);
  const known = RUNTIME_NAMES.map((key) => (RUNTIMES[key].versions === undefined ? key : `${key}[:3.X]`)).join(', ');
  if (name === undefined) throw new UserError(`--runtime ${JSON.stringify(spec)}: unknown runtime (known: ${known})`);
  const entry = RUNTIMES[name as RuntimeName];
  if (rest.length > 0 || (version !== undefined && !(entry.versions ?? []).includes(version))) {
    const hint =
      entry.versions === undefined
        ? `${name} without a version`
        : `${name} or ${name}:3.X with 3.X one of ${entry.versions.join(', ')}`;
    throw new UserError(`--runtime ${JSON.stringify(spec)}: write ${hint}`);
  }
  if (renamed !== undefined)
    note(`--runtime ${written} is now called ${renamed}, the name scenarios and the gate use; ${written} still works`);
  return { name: name as RuntimeName, entry, ...(version === undefined ? {} : { version }) };
}

/** Tool names from a tools file: a JSON array of objects with a string `name` (other fields are ignored). */
async function readToolNames(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readNamedInput(file, 'a tools file');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${file}: cannot read the tools file (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new UserError(`${file}: $: expected an array of tools like [{"name": "search"}]`);
  const names: string[] = [];
  parsed.forEach((tool: unknown, index) => {
    const name =
      tool !== null && typeof tool === 'object' && Object.hasOwn(tool, 'name')
        ? (tool as { name: unknown }).name
        : undefined;
    if (typeof name !== 'string' || name === '')
      throw new UserError(`${file}: $[${index}].name: expected a non-empty string`);
    if (names.includes(name)) throw new UserError(`${file}: $[${index}].name: the tool "${name}" is listed twice`);
    names.push(name);
  });
  return names;
}

/** Each fixture tool answers with its arguments, or fails when its name starts with `fail`. */
function fixtureTools(names: readonly string[]): BindingNamespace {
  const functions = new Map<string, BindingFunction>();
  for (const name of names) {
    functions.set(
      name,
      name.startsWith('fail')
        ? async () => {
            throw new Error(`${name} failed (fixture tools whose name starts with "fail" always fail)`);
          }
        : async (args) => args,
    );
  }
  return { name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } };
}

async function readProgram(programFile: string): Promise<string> {
  try {
    return await readNamedInput(programFile, 'a program file');
  } catch (error) {
    if (error instanceof UserError) throw error;
    throw new UserError(`${programFile}: cannot read the program file (${(error as Error).message})`);
  }
}

/** The result as `concord run` prints it: indented where the native serializer can take the value. */
function printResult(result: RunResult): void {
  const shown = { value: result.value ?? null, logs: result.logs, error: result.error ?? null };
  // A value nested deeper goes on one line.
  const deep = nestsDeeperThan(shown.value, NATIVE_DEPTH_LIMIT);
  process.stdout.write(`${deep ? toJsonText(shown) : JSON.stringify(shown, null, 2)}\n`);
}

/** Runs the program and prints its result, whatever the program did; what stops it from running is thrown. */
export async function runProgram(programFile: string, options: RunOptions, project: Project): Promise<void> {
  // Bad usage throws a UserError: the command line prints it in one line and exits 2 (cli/fail.ts).
  const runtimeSpec = parseRuntime(options.runtime, (line) => process.stderr.write(`concord run: ${line}\n`));
  if (options.scenario !== undefined) {
    if (options.tools !== undefined)
      throw new UserError("--scenario binds the tools of the scenario's app: leave out --tools");
    if (runtimeSpec.version !== undefined)
      throw new UserError(`--runtime ${options.runtime}: with --scenario, the runtime as the scenario configures it`);
    const program = await readProgram(programFile);
    return printResult(await runInScenario(project, options.scenario, runtimeSpec.name, program, options.timeoutMs));
  }
  const toolNames = options.tools === undefined ? ['echo', 'fail'] : await readToolNames(options.tools);
  const program = await readProgram(programFile);

  // What the gate says of a runtime that cannot run here, said the same way (the table checks the default
  // version; a version named on the command line is checked by starting it).
  const unavailable = runtimeSpec.version === undefined ? await runtimeSpec.entry.unavailable?.() : undefined;
  if (unavailable !== undefined)
    throw new UserError(`${runtimeSpec.name} cannot run here: ${unavailable}`, { exitCode: 1 });
  let runtime: CodeRuntime;
  try {
    runtime = await runtimeSpec.entry.create({
      ...(runtimeSpec.version === undefined ? {} : { version: runtimeSpec.version }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  } catch (error) {
    if (error instanceof RuntimeOptionError) throw error;
    throw new UserError(`cannot start the ${options.runtime} runtime: ${(error as Error).message}`, { exitCode: 1 });
  }
  try {
    printResult(await runtime.run({ program, bindings: [fixtureTools(toolNames)] }));
  } finally {
    await runtime.dispose();
  }
}

/**
 * Runs `program` inside the scenario's app on `runtime`, through its agent's path to the code runtime, with the app's
 * own tools bound (as the gate's bound-names probe runs); a run that never reaches the runtime is an error (exit 1).
 */
async function runInScenario(
  project: Project,
  name: string,
  runtime: RuntimeName,
  program: string,
  timeoutMs: number | undefined,
): Promise<RunResult> {
  const { result: ran } = await onScenarioPair(project, name, runtime, (scenario, target) =>
    runInApp(scenario, target, program, {
      description: 'concord run',
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    }),
  );
  if (ran.run === undefined)
    throw new UserError(
      `${name} × ${runtime}: the program never reached the code runtime: the app's agent did not run the run_code call it was given${ran.failure ? ` (${ran.failure.split('\n')[0]})` : ''}`,
      { exitCode: 1 },
    );
  return ran.run;
}
