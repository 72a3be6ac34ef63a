import type { PythonVersion } from '../../codemode/index.js';
import { decodeTable, SUPPORTED_PYTHON_VERSIONS, type UnicodeTable, unicodeTableOf } from '../../codemode/index.js';
import type { ToolDefinition } from '../../contract/backend.js';
import { compareVersions } from '../interpreters/types.js';

/** Code points one Unicode version added to the identifier classes, relative to the version before it. */
export interface ExposureWindow {
  /** The Unicode version that added them, e.g. `14.0.0`. */
  unicode: string;
  /** The oldest supported CPython whose tables hold this version. */
  firstPython: PythonVersion;
  /** Code points that became XID_Start / XID_Continue in this version. */
  xidStart: number;
  xidContinue: number;
  /** A name-starting letter of this version that NFKC keeps and nothing hides: the fixture uses it. */
  sample: number;
}

export interface Exposure {
  floor: PythonVersion;
  floorUnicode: string;
  /** `process.versions.unicode`, as Node reports it (`17.0`). */
  nodeUnicode: string;
  /** The committed table used for Node: the one matching its version, else the newest held. */
  nodeTable: string;
  /** One window per Unicode version after the floor's, up to Node's; empty when the floor is as new as Node. */
  windows: ExposureWindow[];
}

interface Version {
  python: PythonVersion;
  table: UnicodeTable;
}

/** The committed tables, one per Unicode version, each with the oldest CPython that ships it. */
function unicodeVersions(): Version[] {
  const byUnicode = new Map<string, Version>();
  for (const python of SUPPORTED_PYTHON_VERSIONS) {
    const encoded = unicodeTableOf(python);
    if (!byUnicode.has(encoded.version)) byUnicode.set(encoded.version, { python, table: decodeTable(encoded) });
  }
  return [...byUnicode.values()].sort((a, b) => compareVersions(a.table.version, b.table.version));
}

type CodePoints = UnicodeTable['xidStart'];

/** The code points of `set` that `before` lacks, ascending: only the set's own ranges are walked. */
function* addedTo(set: CodePoints, before: CodePoints): Generator<number> {
  for (const [start, end] of set.ranges()) {
    for (let cp = start; cp < end; cp++) if (!before.has(cp)) yield cp;
  }
}

function countAdded(set: CodePoints, before: CodePoints): number {
  let count = 0;
  for (const [start, end] of set.ranges()) count += end - start - before.countWithin(start, end);
  return count;
}

function sampleOf(added: UnicodeTable, before: UnicodeTable, newest: UnicodeTable): number | undefined {
  for (const cp of addedTo(added.xidStart, before.xidStart)) {
    if (newest.defaultIgnorable.has(cp)) continue;
    const char = String.fromCodePoint(cp);
    if (char.normalize('NFKC') === char) return cp;
  }
  return undefined;
}

/**
 * What this Node accepts in an identifier and the floor CPython rejects, grouped by the Unicode version that
 * added it. Counted from the committed tables of codemode/sdk/identifiers, never from Node's own regexps,
 * so the numbers are the ones the renderer decides with.
 */
export function exposure(floor: PythonVersion, nodeUnicode: string = process.versions.unicode ?? 'unknown'): Exposure {
  const versions = unicodeVersions();
  const floorUnicode = unicodeTableOf(floor).version;
  const newest = versions.at(-1)!;
  const node = versions.find((v) => compareVersions(v.table.version, nodeUnicode) === 0) ?? newest;
  const windows: ExposureWindow[] = [];
  for (let i = 1; i < versions.length; i++) {
    const { python, table } = versions[i]!;
    const before = versions[i - 1]!.table;
    if (compareVersions(table.version, floorUnicode) <= 0 || compareVersions(table.version, node.table.version) > 0)
      continue;
    const xidStart = countAdded(table.xidStart, before.xidStart);
    const xidContinue = countAdded(table.xidContinue, before.xidContinue);
    const sample = sampleOf(table, before, newest.table);
    if (sample === undefined) throw new Error(`the Unicode ${table.version} table adds no usable name-starting letter`);
    windows.push({ unicode: table.version, firstPython: python, xidStart, xidContinue, sample });
  }
  return { floor, floorUnicode, nodeUnicode, nodeTable: node.table.version, windows };
}

/** The fixture tool name of a window: its sample letter, then where it comes from. */
export function windowToolName(window: ExposureWindow): string {
  return `${String.fromCodePoint(window.sample)}_unicode_${window.unicode.split('.').slice(0, 2).join('_')}`;
}

/** One tool per window, named with its sample letter: the fixture a renderer pinned to the floor lists by subscript. */
export function windowTools(found: Exposure): ToolDefinition[] {
  return found.windows.map((w) => ({
    name: windowToolName(w),
    description: `A name whose first letter arrived in Unicode ${w.unicode} (CPython ${w.firstPython}+).`,
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
  }));
}
