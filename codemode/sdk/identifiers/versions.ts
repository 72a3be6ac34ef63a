import { PYTHON_FLOOR } from '../../../runtimes/seam/python-floor.js';
import { PYTHON_HARD_KEYWORDS } from '../../../runtimes/seam/python-keywords.js';
import type { PythonVersion } from '../../tools/types.js';
import type { EncodedUnicodeTable } from './table.js';
import { table as unicode121 } from './tables/unicode-12.1.js';
import { table as unicode130 } from './tables/unicode-13.0.js';
import { table as unicode140 } from './tables/unicode-14.0.js';
import { table as unicode150 } from './tables/unicode-15.0.js';
import { table as unicode151 } from './tables/unicode-15.1.js';
import { table as unicode160 } from './tables/unicode-16.0.js';
import { table as unicode170 } from './tables/unicode-17.0.js';

export const DEFAULT_PYTHON_FLOOR: PythonVersion = PYTHON_FLOOR;

/** The Unicode database each supported CPython ships (`unicodedata.unidata_version`). */
const UNICODE_OF_PYTHON: ReadonlyMap<string, EncodedUnicodeTable> = new Map([
  ['3.8', unicode121],
  ['3.9', unicode130],
  ['3.10', unicode130],
  ['3.11', unicode140],
  ['3.12', unicode150],
  ['3.13', unicode151],
  ['3.14', unicode160],
  ['3.15', unicode170],
]);

export const SUPPORTED_PYTHON_VERSIONS: readonly PythonVersion[] = [...UNICODE_OF_PYTHON.keys()] as PythonVersion[];

/** The newest table we hold: properties that only grew over time (default-ignorable) are checked here too. */
export const NEWEST_UNICODE_TABLE: EncodedUnicodeTable = unicode170;

export function unicodeTableOf(python: PythonVersion): EncodedUnicodeTable {
  const table = UNICODE_OF_PYTHON.get(python);
  if (table === undefined) {
    throw new RangeError(`unsupported Python floor "${python}": choose one of ${SUPPORTED_PYTHON_VERSIONS.join(', ')}`);
  }
  return table;
}

/**
 * Hard keywords of every supported CPython (3.8–3.15). `__peg_parser__` is a keyword on 3.9 only; soft
 * keywords (`match`, `case`, `type`, `_`) stay usable as names and are deliberately absent.
 */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(PYTHON_HARD_KEYWORDS);
