import {
  isPythonVersion,
  parseToolDefinitions,
  renderSdk,
  renderSdkSection,
  type SchemaViolation,
  schemaDegradations,
  type ToolDefinition,
} from '../../codemode/index.js';
import { readNamedInput } from '../guarded/read-regular.js';
import { scenarioSdk } from '../pairs/scenario-sdk.js';
import type { Project } from '../project/root.js';
import type { RuntimeName } from '../runtime-names.js';
import { UserError } from '../user-error.js';
import { exitWith } from './exit.js';
import { failAndExit } from './fail.js';
import { sdkStats } from './sdk-stats.js';

export interface SdkOptions {
  language: 'python' | 'typescript';
  tools: string;
  floor: string;
  strict?: boolean;
  fence: boolean;
  stats?: boolean;
}

/** Exit codes: 2 for input that cannot be read as a tool set, 1 under --strict for schema parts with no type. */
const EXIT_BAD_INPUT = 2;
const EXIT_SCHEMA_VIOLATIONS = 1;

/** `concord sdk`: prints the SDK section for the tool set in `options.tools` (or, with --stats, what it costs). */
export async function printSdk(options: SdkOptions): Promise<void> {
  const file = options.tools;
  if (!isPythonVersion(options.floor)) {
    fail(EXIT_BAD_INPUT, [`--floor: expected a CPython version such as 3.9, got ${JSON.stringify(options.floor)}`]);
  }
  const tools = await readTools(file);
  if (options.strict) {
    const violations = tools.flatMap((tool, index) => schemaViolations(tool, index));
    if (violations.length > 0) {
      fail(EXIT_SCHEMA_VIOLATIONS, [
        ...violations.map((v) => `${file}: ${v.path}: ${v.message}`),
        `${violations.length} place${violations.length === 1 ? '' : 's'} with no type; without --strict each becomes an unknown type (Any / unknown)`,
      ]);
    }
  }
  const render = options.fence ? renderSdkSection : renderSdk;
  const sdkOf = (some: readonly ToolDefinition[]) =>
    render(options.language, [...some], { pythonFloor: options.floor as `3.${number}` });
  if (options.stats) {
    process.stdout.write(await sdkStats(options.language, tools, sdkOf));
    return;
  }
  const text = sdkOf(tools);
  process.stdout.write(text.endsWith('\n') ? text : text + '\n');
}

/**
 * `concord sdk --scenario`: the SDK the scenario's app rendered on one runtime, fenced as the prompt section holds it
 * (`--no-fence`: the file the gate writes); with `--stats`, its size counted as the gate counts it.
 */
export async function printScenarioSdk(
  project: Project,
  scenario: string,
  options: { runtime?: string; stats?: boolean; fence: boolean },
): Promise<void> {
  let sdk;
  try {
    sdk = await scenarioSdk(project, scenario, options.runtime as RuntimeName | undefined);
  } catch (error) {
    failAndExit('sdk', error);
  }
  if (options.stats) {
    const size = sdk.size;
    const cost =
      size === undefined
        ? `${sdk.text.length.toLocaleString('en-US')} characters (install js-tiktoken for tokens and bytes)`
        : `${size.tokens.toLocaleString('en-US')} tokens · ${size.bytes.toLocaleString('en-US')} bytes`;
    process.stdout.write(
      `${sdk.pair}: the ${sdk.language} SDK its app shows the model: ${cost} (as concord gate counts it)\n`,
    );
    return;
  }
  const text = options.fence
    ? `\`\`\`${sdk.language}\n${sdk.text}${sdk.text.endsWith('\n') ? '' : '\n'}\`\`\`\n`
    : sdk.text;
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

async function readTools(file: string): Promise<ToolDefinition[]> {
  let text: string;
  try {
    text = await readNamedInput(file, 'a tools file');
  } catch (error) {
    const problem = error instanceof UserError ? error.problem : (error as Error).message;
    return fail(EXIT_BAD_INPUT, [`${file}: cannot read: ${problem}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return fail(EXIT_BAD_INPUT, [`${file}: not valid JSON: ${describeJsonError(text, (error as Error).message)}`]);
  }
  const { tools, problems } = parseToolDefinitions(value);
  if (problems.length > 0)
    return fail(
      EXIT_BAD_INPUT,
      problems.map((p) => `${file}: ${p.path}: ${p.message}`),
    );
  return tools;
}

function schemaViolations(tool: ToolDefinition, index: number): SchemaViolation[] {
  const roots: [string, unknown][] = [[`$[${index}].parameters`, tool.parameters]];
  if (tool.output !== undefined) roots.push([`$[${index}].output`, tool.output]);
  return roots.flatMap(([base, schema]) =>
    schemaDegradations(schema).map((v) => ({ path: base + v.path.slice(1), message: v.message })),
  );
}

/** JSON.parse names a character offset for some errors: turn it into a line and column. */
function describeJsonError(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  if (position === null) return message;
  const before = text.slice(0, Number(position[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `line ${line}, column ${column}: ${message}`;
}

function fail(code: number, lines: string[]): never {
  process.stderr.write(lines.map((line) => `concord sdk: ${line}\n`).join(''));
  exitWith(code);
}
