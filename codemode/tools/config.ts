import type { Language } from '../../runtimes/seam/types.js';
import type { RunCodeText } from '../run-code/descriptions.js';
import { DEFAULT_PYTHON_FLOOR, SUPPORTED_PYTHON_VERSIONS } from '../sdk/identifiers/versions.js';
import type { PythonVersion } from './types.js';

/** What goes over the wire: the tools themselves, only `run_code`, or `run_code` beside the tools. */
export type ToolMode = 'native' | 'code' | 'both';

export const TOOL_MODES: readonly ToolMode[] = ['native', 'code', 'both'];

export { DEFAULT_PYTHON_FLOOR };

/** Config of the tool registry plugin, as written in a `cordis.yml` entry. */
export interface ToolsConfig {
  mode: ToolMode;
  pythonFloor: PythonVersion;
  /**
   * Replaces entries of the per-language `run_code` text table. Meant for tests that build a composition
   * whose wording disagrees with its runtime on purpose; leave it out otherwise.
   */
  runCodeText?: Partial<Record<Language, RunCodeText>>;
}

/** A CPython version the SDK renderer has Unicode tables and keywords for. */
export function isPythonVersion(value: unknown): value is PythonVersion {
  return typeof value === 'string' && (SUPPORTED_PYTHON_VERSIONS as readonly string[]).includes(value);
}

/** Checks a raw `cordis.yml` config; every problem is named with its key and the accepted values. */
export function parseToolsConfig(raw: unknown): ToolsConfig {
  const config = raw ?? {};
  if (typeof config !== 'object' || Array.isArray(config)) {
    throw new Error(`tools: config must be an object like { mode: code }, got ${JSON.stringify(raw)}`);
  }
  const problems: string[] = [];
  const known = new Set(['mode', 'pythonFloor', 'runCodeText']);
  for (const key of Object.keys(config)) {
    if (!known.has(key)) problems.push(`unknown key "${key}" (known: mode, pythonFloor, runCodeText)`);
  }
  const { mode, pythonFloor = DEFAULT_PYTHON_FLOOR, runCodeText } = config as Record<string, unknown>;
  if (mode === undefined) {
    problems.push(`mode is required (one of ${TOOL_MODES.join(', ')})`);
  } else if (!TOOL_MODES.includes(mode as ToolMode)) {
    problems.push(`mode must be one of ${TOOL_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  if (!isPythonVersion(pythonFloor)) {
    problems.push(
      `pythonFloor must be one of ${SUPPORTED_PYTHON_VERSIONS.join(', ')}, got ${JSON.stringify(pythonFloor)}`,
    );
  }
  if (runCodeText !== undefined && !isRunCodeTextTable(runCodeText)) {
    problems.push('runCodeText must map python and/or typescript to { tool: string, code: string }');
  }
  if (problems.length > 0) throw new Error(`tools: bad config: ${problems.join('; ')}`);
  return {
    mode: mode as ToolMode,
    pythonFloor: pythonFloor as PythonVersion,
    ...(runCodeText === undefined ? {} : { runCodeText: runCodeText as ToolsConfig['runCodeText'] }),
  };
}

function isRunCodeTextTable(value: unknown): value is Partial<Record<Language, RunCodeText>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(
    ([language, text]) =>
      (language === 'python' || language === 'typescript') &&
      typeof text === 'object' &&
      text !== null &&
      typeof (text as Record<string, unknown>).tool === 'string' &&
      typeof (text as Record<string, unknown>).code === 'string',
  );
}
