import { decodeTable, type PythonVersion, unicodeTableOf } from '../../../codemode/index.js';
import { nameList } from '../../text/name-list.js';
import { parsePython } from './parse.js';

const UNDERSCORE = 0x5f;

/** A name of a Python block the floor's parser cannot read, and where it first stands (1-based). */
export interface PastFloorName {
  name: string;
  line: number;
  column: number;
}

/**
 * The identifiers of a Python SDK block that CPython `floor` cannot read: a letter its Unicode tables do not know
 * (Node's tables are newer, so a renderer deciding with them writes names an older floor rejects). Decided with the
 * floor's own tables, after NFKC as the parser applies it, without running any interpreter.
 */
export function pastFloorNames(sdk: string, floor: PythonVersion): PastFloorName[] {
  const table = decodeTable(unicodeTableOf(floor));
  const readable = (name: string) =>
    [...name.normalize('NFKC')].every((char, i) => {
      const point = char.codePointAt(0)!;
      return i === 0 ? point === UNDERSCORE || table.xidStart.has(point) : table.xidContinue.has(point);
    });
  const found = new Map<string, PastFloorName>();
  const lineStarts = [0];
  for (let i = sdk.indexOf('\n'); i !== -1; i = sdk.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  parsePython(sdk).iterate({
    enter(node) {
      if (node.name !== 'VariableName' && node.name !== 'PropertyName') return;
      const name = sdk.slice(node.from, node.to);
      // ASCII names are readable on every CPython; each name is judged once.
      if (/^[\x00-\x7f]*$/.test(name) || found.has(name) || readable(name)) return;
      let line = lineStarts.length - 1;
      while (lineStarts[line]! > node.from) line--;
      found.set(name, { name, line: line + 1, column: node.from - lineStarts[line]! + 1 });
    },
  });
  return [...found.values()];
}

/** `ꟑ_x (line 3, column 15)` and the others, as one sentence of a finding. */
export function showPastFloor(names: readonly PastFloorName[]): string {
  return nameList(names.map((n) => `${n.name} (line ${n.line}, column ${n.column})`));
}

/** The Unicode version of the floor's tables, as a finding names it. */
export const floorUnicode = (floor: PythonVersion): string => unicodeTableOf(floor).version;
