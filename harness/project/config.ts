import { readFile } from 'node:fs/promises';
import type { Shape } from '../scenario/shape.js';
import { readYamlInput } from '../scenario/yaml-input.js';
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
  // An empty file is a valid config: it only marks the root.
  return readYamlInput<ProjectConfig>(file, source, CONFIG, 'concord.config.yml', { hint: 'check the indentation and quoting near this position', allowEmpty: true }).data;
}
