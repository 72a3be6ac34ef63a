import { readFile } from 'node:fs/promises';
import { parseDocument, type Node } from 'yaml';
import { InputError } from '../scenario/error.js';
import { check, Locator, type Shape } from '../scenario/shape.js';
import { RUNTIME_NAMES, type RuntimeName } from '../scenario/types.js';
import { SUPPORTED_PYTHON_VERSIONS } from '../../codemode/index.js';

/** `concord.config.yml`: defaults for every command run in the project. Every field is optional. */
export interface ProjectConfig {
  /** The oldest CPython the Python SDK must serve (`--floor` overrides it). */
  floor?: string;
  /** The runtimes the gate runs when `--runtime` is not given. */
  runtimes?: RuntimeName[];
  /** The runtime entry's time budget for every scenario that sets none. */
  timeoutMs?: number;
}

const CONFIG: Shape = {
  kind: 'map',
  fields: {
    floor: { shape: { kind: 'enum', values: SUPPORTED_PYTHON_VERSIONS } },
    runtimes: { shape: { kind: 'list', of: { kind: 'enum', values: RUNTIME_NAMES }, min: 1 } },
    timeoutMs: { shape: { kind: 'number', min: 1 } },
  },
};

export async function loadProjectConfig(file: string): Promise<ProjectConfig> {
  return parseProjectConfig(file, await readFile(file, 'utf8'));
}

export function parseProjectConfig(file: string, source: string): ProjectConfig {
  const loc = new Locator(file);
  const doc = parseDocument(source, { lineCounter: loc.lines, prettyErrors: false, uniqueKeys: true });
  const [syntax] = doc.errors;
  if (syntax) {
    const pos = syntax.linePos?.[0] ?? { line: 1, col: 1 };
    throw new InputError(file, pos.line, pos.col, `not valid YAML: ${syntax.message.split('\n')[0]}`, 'check the indentation and quoting near this position');
  }
  const root = doc.contents as Node | null;
  // An empty file is a valid config: it only marks the root.
  if (root === null) return {};
  check(loc, root, CONFIG, 'concord.config.yml');
  return doc.toJS() as ProjectConfig;
}
