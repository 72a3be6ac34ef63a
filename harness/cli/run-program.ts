import { readFile } from 'node:fs/promises';
import { CPYTHON_IMAGES, cpythonImage } from '../../runtimes/cpython/images.js';
import { PYODIDE_PYTHON_VERSIONS, isPyodidePythonVersion } from '../../runtimes/pyodide/versions.js';
import type { BindingFunction, BindingNamespace, CodeRuntime } from '../../runtimes/seam/types.js';
import type { RunOptions } from './commands/run.js';

/** What `concord run` does once its options are parsed (the command is declared in `commands/run.ts`). */

type RuntimeFactory = (options: { version?: string; timeoutMs?: number }) => Promise<CodeRuntime>;

interface RuntimeKind {
  /** The CPython versions accepted as `KIND:3.X`; absent when the kind takes no version. */
  versions?: readonly string[];
  create: RuntimeFactory;
}

const limits = (timeoutMs: number | undefined): { timeoutMs?: number } => (timeoutMs === undefined ? {} : { timeoutMs });

/** The runtimes `--runtime` accepts; each loads its backend only when asked for. */
const RUNTIMES: Record<string, RuntimeKind> = {
  typescript: {
    create: async ({ timeoutMs }) => (await import('../../runtimes/worker/index.js')).createWorkerRuntime(limits(timeoutMs)),
  },
  'python-process': {
    create: async ({ timeoutMs }) => (await import('../../runtimes/cpython/runtime.js')).createCpythonRuntime({ isolation: 'process', ...limits(timeoutMs) }),
  },
  'python-container': {
    versions: CPYTHON_IMAGES.map((image) => image.python),
    // Asked for a container by name: no silent fallback to a local process.
    create: async ({ version, timeoutMs }) =>
      (await import('../../runtimes/cpython/runtime.js')).createCpythonRuntime({
        isolation: 'container',
        fallback: 'error',
        ...(version === undefined ? {} : { image: cpythonImage(version).tag }),
        ...limits(timeoutMs),
      }),
  },
  pyodide: {
    versions: PYODIDE_PYTHON_VERSIONS,
    create: async ({ version, timeoutMs }) =>
      (await import('../../runtimes/pyodide/runtime.js')).createPyodideRuntime({ ...(isPyodidePythonVersion(version) ? { version } : {}), ...limits(timeoutMs) }),
  },
};

class UsageError extends Error {}

function parseRuntime(spec: string): { kind: RuntimeKind; version?: string } {
  const [name = '', version, ...rest] = spec.split(':');
  const kind = Object.hasOwn(RUNTIMES, name) ? RUNTIMES[name] : undefined;
  const known = Object.keys(RUNTIMES)
    .map((key) => (RUNTIMES[key]!.versions === undefined ? key : `${key}[:3.X]`))
    .join(', ');
  if (kind === undefined) throw new UsageError(`--runtime ${JSON.stringify(spec)}: unknown runtime (known: ${known})`);
  if (rest.length > 0 || (version !== undefined && !(kind.versions ?? []).includes(version))) {
    const hint =
      kind.versions === undefined ? `${name} without a version` : `${name} or ${name}:3.X with 3.X one of ${kind.versions.join(', ')}`;
    throw new UsageError(`--runtime ${JSON.stringify(spec)}: write ${hint}`);
  }
  return version === undefined ? { kind } : { kind, version };
}

/** Tool names from a tools file: a JSON array of objects with a string `name` (other fields are ignored). */
async function readToolNames(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${file}: cannot read the tools file (${(error as Error).message})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(parsed)) throw new UsageError(`${file}: $: expected an array of tools like [{"name": "search"}]`);
  const names: string[] = [];
  parsed.forEach((tool: unknown, index) => {
    const name = tool !== null && typeof tool === 'object' && Object.hasOwn(tool, 'name') ? (tool as { name: unknown }).name : undefined;
    if (typeof name !== 'string' || name === '') throw new UsageError(`${file}: $[${index}].name: expected a non-empty string`);
    if (names.includes(name)) throw new UsageError(`${file}: $[${index}].name: the tool "${name}" is listed twice`);
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

/** Runs the program and prints its result; resolves to the exit code. */
export async function runProgram(programFile: string, options: RunOptions): Promise<number> {
  let program: string;
  let toolNames: string[];
  let runtimeSpec: ReturnType<typeof parseRuntime>;
  try {
    runtimeSpec = parseRuntime(options.runtime);
    toolNames = options.tools === undefined ? ['echo', 'fail'] : await readToolNames(options.tools);
    try {
      program = await readFile(programFile, 'utf8');
    } catch (error) {
      throw new UsageError(`${programFile}: cannot read the program file (${(error as Error).message})`);
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`concord run: ${error.message}\n`);
    return 2;
  }

  let runtime: CodeRuntime;
  try {
    runtime = await runtimeSpec.kind.create({
      ...(runtimeSpec.version === undefined ? {} : { version: runtimeSpec.version }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    });
  } catch (error) {
    process.stderr.write(`concord run: cannot start the ${options.runtime} runtime: ${(error as Error).message}\n`);
    return 1;
  }
  try {
    const result = await runtime.run({ program, bindings: [fixtureTools(toolNames)] });
    process.stdout.write(`${JSON.stringify({ value: result.value ?? null, logs: result.logs, error: result.error ?? null }, null, 2)}\n`);
    return 0;
  } finally {
    await runtime.dispose();
  }
}
