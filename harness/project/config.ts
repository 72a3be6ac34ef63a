import { dirname } from 'node:path';
import { isMap, isSeq, type Node } from 'yaml';
import { SUPPORTED_PYTHON_VERSIONS } from '../../codemode/index.js';
import {
  PYODIDE_PYTHON_VERSIONS,
  PYODIDE_RELEASES,
  type PyodidePythonVersion,
  pyodideInstalled,
} from '../../runtimes/pyodide/versions.js';
import { installCommand } from '../../runtimes/seam/optional-package.js';
import { readRegularFile } from '../guarded/read-regular.js';
import { RUNTIME_NAMES, type RuntimeName } from '../runtime-names.js';
import { runtimeSettingFields } from '../scenario/runtime-settings.js';
import type { Shape } from '../scenario/shape.js';
import { MAX_INPUT_BYTES, readYamlInput } from '../scenario/yaml-input.js';
import {
  compileRedactions,
  JSON_PATH,
  PLACEHOLDER,
  type Redaction,
  type RedactionEntry,
} from '../snapshot/redactions.js';

/** How the gate treats a registered tool that no scenario's program called. */
export type CoverageLevel = 'warn' | 'error';

/** `coverage:` of `concord.config.yml`. */
export interface CoverageConfig {
  /** A registered tool no scenario's program called: listed as a warning (default), or an error that fails the gate. */
  uncalled?: CoverageLevel;
}

/** Limits on the `tools:sdk` section, per language: absolute, and growth against the committed snapshots. */
export interface SdkBudget {
  /** Tokens any one scenario's section may have. */
  maxTokens?: number;
  /** Tokens the largest section may grow by against the committed snapshots. */
  maxGrowthTokens?: number;
  /** Percent the largest section may grow by against the committed snapshots. */
  maxGrowthPercent?: number;
}

/** A finding the team knows of: its check, a piece of its message, and why it is known rather than fixed. */
export interface KnownFinding {
  check: string;
  says: string;
  why: string;
}

/** `concord.config.yml`: defaults for every command run in the project. Every field is optional. */
export interface ProjectConfig {
  /** The oldest CPython the Python SDK must serve (`--floor` overrides it). */
  floor?: string;
  /** The runtimes the gate runs when `--runtime` is not given. */
  runtimes?: RuntimeName[];
  /** The runtime entry's time budget for every scenario that sets none. */
  timeoutMs?: number;
  /** The bytes of JSON one tool call may carry each way, for every scenario that sets none (default 16 MiB). */
  bridgeBytes?: number;
  /** How deep a value one tool call carries may nest, for every scenario that sets none (default 500). */
  bridgeDepth?: number;
  /** The project's own volatile values, compiled; applied before every compare and write. */
  redactions?: Redaction[];
  /** What the gate says of registered tools no scenario called. */
  coverage?: CoverageConfig;
  sdkBudget?: SdkBudget;
  /**
   * The Pyodide releases (by the CPython each embeds) the stub matrix compiles and imports the SDK on; each
   * must be installed. Default: the one concord installs (DEFAULT_PYODIDE_VERSION).
   */
  pyodide?: { versions: PyodidePythonVersion[] };
  /**
   * Findings the team knows of and does not fail the gate on yet (a defect of a renderer it does not own): each turns an
   * error of its check whose message holds `says` into a note that says `why`.
   */
  known?: KnownFinding[];
  /**
   * The module that boots the project's app when concord does not assemble it (`./concord-host.mjs`, a path from the
   * project root): its default export is a `Host` (concord/contract).
   */
  host?: string;
}

type RawConfig = Omit<ProjectConfig, 'redactions'> & { redactions?: RedactionEntry[] };

const CONFIG: Shape = {
  kind: 'map',
  fields: {
    floor: { shape: { kind: 'enum', values: SUPPORTED_PYTHON_VERSIONS } },
    runtimes: { shape: { kind: 'list', of: { kind: 'enum', values: RUNTIME_NAMES }, min: 1 } },
    ...runtimeSettingFields(),
    redactions: {
      shape: {
        kind: 'list',
        of: {
          kind: 'map',
          fields: {
            pattern: {
              shape: { kind: 'string', nonEmpty: true },
              required: true,
              hint: 'add pattern: a regular expression, e.g. "ord_[A-Za-z0-9]{10}"',
            },
            placeholder: {
              shape: {
                kind: 'string',
                pattern: PLACEHOLDER,
                patternHint: 'a short lower-case name such as order-id; a match becomes <order-id-1>',
              },
              required: true,
              hint: 'add placeholder: a name such as order-id',
            },
            tool: { shape: { kind: 'string', nonEmpty: true } },
            path: {
              shape: {
                kind: 'string',
                pattern: JSON_PATH,
                patternHint: 'a JSON path such as $.order.created_at, $.items[*].id or $["created at"]',
              },
            },
          },
        },
      },
    },
    coverage: { shape: { kind: 'map', fields: { uncalled: { shape: { kind: 'enum', values: ['warn', 'error'] } } } } },
    known: {
      shape: {
        kind: 'list',
        of: {
          kind: 'map',
          fields: {
            check: {
              shape: { kind: 'string', nonEmpty: true },
              required: true,
              hint: 'add check: the id of the check, as findings name it (renderer-floor, probe, stub-import, …)',
            },
            says: {
              shape: { kind: 'string', nonEmpty: true },
              required: true,
              hint: "add says: a piece of the finding's text, such as invalid non-printable character",
            },
            why: {
              shape: { kind: 'string', nonEmpty: true },
              required: true,
              hint: 'add why: the reason it is known rather than fixed, which every report prints beside it',
            },
          },
        },
      },
    },
    host: {
      shape: {
        kind: 'string',
        pattern: /^\.\/[^\0]+$/,
        patternHint: 'a path from the project root that starts with ./, such as ./concord-host.mjs',
      },
    },
    sdkBudget: {
      shape: {
        kind: 'map',
        fields: {
          maxTokens: { shape: { kind: 'number', min: 1 } },
          maxGrowthTokens: { shape: { kind: 'number', min: 0 } },
          maxGrowthPercent: { shape: { kind: 'number', min: 0 } },
        },
      },
    },
    pyodide: {
      shape: {
        kind: 'map',
        fields: {
          versions: {
            shape: { kind: 'list', of: { kind: 'enum', values: PYODIDE_PYTHON_VERSIONS }, min: 1 },
            required: true,
            hint: `add versions: a list such as ["${PYODIDE_PYTHON_VERSIONS.join('", "')}"]`,
          },
        },
      },
    },
  },
};

/**
 * Reads `concord.config.yml`: a regular file, or a link to one inside the project (a pipe there would hold every
 * command; a file outside the project is not the project's to read).
 */
export async function loadProjectConfig(file: string): Promise<ProjectConfig> {
  const source = await readRegularFile(file, 'a concord.config.yml', MAX_INPUT_BYTES, {
    followLinks: true,
    root: dirname(file),
    hint: 'make concord.config.yml a file of settings (an empty one marks the project root)',
  });
  return parseProjectConfig(file, source.toString('utf8'));
}

export function parseProjectConfig(file: string, source: string): ProjectConfig {
  // An empty file is a valid config: it only marks the root.
  const { loc, root, data } = readYamlInput<RawConfig>(file, source, CONFIG, 'concord.config.yml', {
    hint: 'check the indentation and quoting near this position',
    allowEmpty: true,
  });
  const { redactions, ...rest } = data;
  if (rest.pyodide !== undefined) {
    const list = isMap(root) ? root.getIn(['pyodide', 'versions'], true) : undefined;
    rest.pyodide.versions.forEach((version, i) => {
      if (pyodideInstalled(version)) return;
      const release = PYODIDE_RELEASES[version];
      const at = (isSeq(list) ? list.items[i] : list) as Node;
      throw loc.error(
        at,
        `pyodide.versions[${i}]: Pyodide ${release.pyodide} (Python ${version}) is not installed`,
        `run \`${installCommand(release.packageName)}\`, or leave ${version} out`,
      );
    });
  }
  if (redactions === undefined) return rest;
  return {
    ...rest,
    redactions: compileRedactions(redactions, loc, isMap(root) ? (root.get('redactions', true) as Node) : null),
  };
}
