/**
 * The entries of a vitest (or Jest) snapshot file, read back as values. A suite that snapshots the requests its
 * backend sends a model (`expect(body).toMatchSnapshot()`) keeps them there, printed by pretty-format: keys sorted,
 * two spaces a level, a comma after every entry, and strings between quotes but unescaped (vitest's
 * `escapeString: false`). The file is read as text, never run.
 */

import { withoutByteOrderMark } from '../../contract/text-lines.js';
import { compilerOutOfStack } from '../../runtimes/seam/typescript.js';

/** One snapshot: its name (`agent > sends the SDK 1`) and the value it prints, or why that could not be read back. */
export type SnapshotEntry = { name: string; line: number } & (
  | { value: unknown }
  | { problem: string; printed?: string }
);

/** The header vitest and Jest write on the first line of a snapshot file. */
const HEADER = /^\/\/ (?:Vitest|Jest) Snapshot v\d+/;

/** Whether a text is a snapshot file: its header, or its name (`*.snap`). */
export function isSnapshotFile(file: string, text: string): boolean {
  return file.endsWith('.snap') || HEADER.test(text);
}

/**
 * Every `exports[`name`] = `…`;` of a snapshot file, in order; undefined when the text holds none. The template
 * strings are unescaped as the file's writer escaped them (every backslash, backtick and `${`).
 */
export function snapshotEntries(written: string): SnapshotEntry[] | undefined {
  // The writer ends every line in LF (it normalizes the values too): a CR is a checkout's (git's autocrlf), not a value's.
  const text = withoutByteOrderMark(written).replace(/\r\n?/g, '\n');
  const entries: SnapshotEntry[] = [];
  const opening = /^exports\[`/gm;
  // Lines are counted on from the entry before, so a file of many entries is read in one pass.
  let line = 1;
  let counted = 0;
  for (let match = opening.exec(text); match !== null; match = opening.exec(text)) {
    for (let i = text.indexOf('\n', counted); i !== -1 && i < match.index; i = text.indexOf('\n', i + 1)) line++;
    counted = match.index;
    const name = templateString(text, match.index + 'exports['.length);
    if (name === undefined || !text.startsWith('] = ', name.end)) {
      entries.push({ name: '?', line, problem: 'its name is not a closed template string' });
      continue;
    }
    const printed = templateString(text, name.end + '] = '.length);
    if (printed === undefined) {
      entries.push({ name: name.text, line, problem: 'its value is not a closed template string' });
      continue;
    }
    opening.lastIndex = printed.end;
    const shown = withoutExtraLineBreaks(printed.text);
    const read = readPrinted(shown);
    entries.push({ name: name.text, line, ...read, ...('problem' in read ? { printed: shown } : {}) });
  }
  return entries.length === 0 ? undefined : entries;
}

/** The template string that opens at `start` (a backtick), unescaped, and the index after its closing backtick. */
function templateString(text: string, start: number): { text: string; end: number } | undefined {
  if (text[start] !== '`') return undefined;
  const special = /[`\\]/g;
  const parts: string[] = [];
  let from = start + 1;
  special.lastIndex = from;
  for (let found = special.exec(text); found !== null; found = special.exec(text)) {
    parts.push(text.slice(from, found.index));
    if (found[0] === '`') return { text: parts.join(''), end: found.index + 1 };
    // A backslash keeps the character after it, whatever it is.
    if (found.index + 1 >= text.length) return undefined;
    parts.push(text[found.index + 1]!);
    from = found.index + 2;
    special.lastIndex = from;
  }
  return undefined;
}

/** A multi-line snapshot is written with a line break after its opening and before its closing backtick. */
function withoutExtraLineBreaks(printed: string): string {
  return printed.length > 2 && printed.startsWith('\n') && printed.endsWith('\n') ? printed.slice(1, -1) : printed;
}

class Unreadable extends Error {}

/**
 * Whether a string read up to a quote that the structure goes on after could be a longer string cut short there: its
 * last line ends in a key and the start of a string value (`"type": "object`, a JSON example's entry whose `",` was
 * taken for the end), or one of its lines begins with a key at the string's own indentation (as the entry after such
 * a cut would). Printed unescaped, either reads more than one way.
 */
function entryShaped(text: string, indent: number): boolean {
  const last = text.slice(text.lastIndexOf('\n') + 1);
  if (/"[^"\n]*": "/.test(last)) return true;
  return text.includes('\n') && keyAt(indent).test(text);
}

const keyLines = new Map<number, RegExp>();
function keyAt(indent: number): RegExp {
  let pattern = keyLines.get(indent);
  if (pattern === undefined) keyLines.set(indent, (pattern = new RegExp(`^ {${indent}}"[^"\\n]*": `, 'm')));
  return pattern;
}

/**
 * The value pretty-format printed, or why it cannot be read back: a type JSON does not have, a shape it never writes,
 * or strings whose text is shaped as its entries. A string ends at the first quote after which the structure goes on
 * as printed, and keys come in the order pretty-format sorts them; a reading is taken only when no string it reads
 * is shaped as one cut short (see `entryShaped`). A string whose text mimics whole entries of the structure around
 * it, unlike any JSON example's, could still read otherwise.
 */
function readPrinted(printed: string): { value: unknown } | { problem: string } {
  const reader = new PrettyReader(printed);
  try {
    const value = reader.value(0, undefined);
    if (reader.at !== printed.length) reader.fail('more text after the value');
    return { value };
  } catch (thrown) {
    if (thrown instanceof Unreadable) return { problem: thrown.message };
    // A value nested deeper than the reader's stack reaches is no request a backend sends.
    if (compilerOutOfStack(thrown)) return { problem: 'it nests too deeply to read back' };
    throw thrown;
  }
}

const SCALAR = /(?:-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|Infinity)|NaN|true|false|null|undefined)(?=,|\n|$)/y;
const UNJSON = 'a value JSON does not have (a function, a date, a map, a class instance)';
/** Jest prints the prototype before a plain object or array (`Object {`, `Array [`); vitest does not. */
const PROTOTYPE = /(?:Object|Array) (?=[{[])/y;

/** Reads pretty-format's output back, by its indentation: a string ends where the structure around it goes on. */
class PrettyReader {
  at = 0;

  constructor(private readonly text: string) {}

  fail(what: string): never {
    const line = this.text.slice(0, this.at).split('\n').length;
    throw new Unreadable(`${what} at line ${line} of the snapshot`);
  }

  /** The value at `at`, printed at `indent` spaces inside a container that `closer` ends (none at the top). */
  value(indent: number, closer: '}' | ']' | undefined): unknown {
    PROTOTYPE.lastIndex = this.at;
    if (PROTOTYPE.test(this.text)) this.at = PROTOTYPE.lastIndex;
    const c = this.text[this.at];
    const opens = c === '{' || c === '[';
    // `[Function]`, `[Error: …]`, `{…}` of a class's own printing: no object or list JSON has.
    if (opens && this.text[this.at + 1] !== '\n' && this.text[this.at + 1] !== (c === '{' ? '}' : ']'))
      this.fail(UNJSON);
    if (opens) return this.container(indent, c);
    if (c === '"') return this.string(indent, closer);
    SCALAR.lastIndex = this.at;
    const scalar = SCALAR.exec(this.text);
    if (scalar === null) this.fail(UNJSON);
    this.at = SCALAR.lastIndex;
    const word = scalar[0];
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    if (word === 'undefined') return undefined;
    return Number(word);
  }

  private container(indent: number, open: '{' | '['): unknown {
    const close = open === '{' ? '}' : ']';
    const list: unknown[] = [];
    const object: Record<string, unknown> = {};
    this.at++;
    if (this.text[this.at] === close) {
      this.at++;
      return open === '{' ? object : list;
    }
    const inner = ' '.repeat(indent + 2);
    const end = `\n${' '.repeat(indent)}${close}`;
    let previous: string | undefined;
    while (!this.text.startsWith(end, this.at)) {
      if (!this.text.startsWith(`\n${inner}`, this.at) || this.text[this.at + inner.length + 1] === ' ')
        this.fail(`an entry indented by ${inner.length} spaces expected`);
      this.at += inner.length + 1;
      if (open === '{') {
        const key = this.key(previous);
        previous = key;
        const value = this.value(indent + 2, close);
        if (value !== undefined) object[key] = value;
      } else list.push(this.value(indent + 2, close) ?? null);
      if (this.text[this.at] !== ',') this.fail('a comma after an entry expected');
      this.at++;
    }
    this.at += end.length;
    return open === '{' ? object : list;
  }

  /** A key, after `previous` in the order pretty-format sorts keys (JavaScript's order of strings). */
  private key(previous: string | undefined): string {
    if (this.text[this.at] !== '"') this.fail('a quoted key expected');
    const end = this.text.indexOf('": ', this.at + 1);
    const lineEnd = this.text.indexOf('\n', this.at);
    if (end === -1 || (lineEnd !== -1 && lineEnd < end)) this.fail('a key and ": " on one line expected');
    const key = this.text.slice(this.at + 1, end);
    if (previous !== undefined && !(previous < key)) this.fail('keys in sorted order expected');
    this.at = end + 3;
    return key;
  }

  /**
   * A string printed without escapes: it ends at the first quote after which the structure goes on as printed (the
   * comma, then the next entry at `indent` or the container's close), or, at the top, at the end of the text.
   */
  private string(indent: number, closer: '}' | ']' | undefined): string {
    const start = this.at + 1;
    let end: number | undefined;
    if (closer === undefined) {
      if (!this.text.endsWith('"') || this.text.length - 1 < start) this.fail('a closing quote at the end expected');
      end = this.text.length - 1;
    }
    const next = `",\n${' '.repeat(indent)}`;
    const close = `",\n${' '.repeat(Math.max(0, indent - 2))}${closer}`;
    for (let quote = this.text.indexOf('",\n', start); end === undefined && quote !== -1; ) {
      const goesOn =
        (this.text.startsWith(next, quote) && /[^ \n]/.test(this.text[quote + next.length] ?? '')) ||
        (this.text.startsWith(close, quote) && /^(?:,|$)/.test(this.text[quote + close.length] ?? ''));
      if (goesOn) end = quote;
      else quote = this.text.indexOf('",\n', quote + 1);
    }
    if (end === undefined) return this.fail('the end of a string expected');
    const text = this.text.slice(start, end);
    // At the top the string runs to the end of the text: nothing in it can end it early.
    if (closer !== undefined && entryShaped(text, indent))
      this.fail('a string that holds text shaped as an entry (`"key": ` on its last line, or at its own indentation)');
    this.at = end + 1;
    return text;
  }
}
