import {
  type Document,
  isPair,
  isScalar,
  isSeq,
  type LineCounter,
  type Node,
  parseDocument,
  visit,
  type YAMLError,
} from 'yaml';
import { maskControls } from '../text/visible.js';
import { TEXT_BINARY_TAG } from '../text/yaml-text.js';
import { InputError } from './error.js';
import { JS_EXPR_TAG } from './js-expr.js';
import { check, Locator, type Shape } from './shape.js';

/** Larger than any hand-written input file; a bigger one is refused before it is parsed. */
export const MAX_INPUT_BYTES = 1024 * 1024;
/** Aliases an input may expand; a few are handy, thousands are an attack. */
const MAX_ALIAS_COUNT = 100;

/** Characters of a source line an excerpt shows. */
const EXCERPT_WIDTH = 160;

/**
 * The source line at `line` and a caret under `col`, as a reader looks for it in an editor. A long line is
 * shown around the column, so the caret stays under what it points at; a control character shows as `?`.
 */
export function sourceExcerpt(source: string, line: number, col: number): string {
  const text = maskControls((source.split(/\r?\n/)[line - 1] ?? '').replace(/\t/g, ' '));
  const at = Math.max(col - 1, 0);
  const start =
    text.length <= EXCERPT_WIDTH ? 0 : Math.max(0, Math.min(at - EXCERPT_WIDTH / 2, text.length - EXCERPT_WIDTH));
  const before = start > 0 ? '…' : '';
  const shown = before + text.slice(start, start + EXCERPT_WIDTH) + (start + EXCERPT_WIDTH < text.length ? '…' : '');
  const gutter = String(line);
  return `  ${gutter} | ${shown}\n  ${' '.repeat(gutter.length)} | ${' '.repeat(before.length + at - start)}^`;
}

/**
 * Where a reader looks for a YAML syntax error: the parser's place, except that an error at the end of the
 * input (an unclosed `[`, `{` or quote) is put just after the last character written, where the missing one
 * belongs, rather than on the empty line past the file's last newline.
 */
export function syntaxErrorPlace(source: string, lines: LineCounter, error: YAMLError): { line: number; col: number } {
  const written = source.trimEnd().length;
  const offset = error.pos[0];
  return lines.linePos(written > 0 && offset >= written ? written : offset);
}

export interface YamlInput<T> {
  loc: Locator;
  /** The document's root node, for errors raised after the shape check; null for an empty document. */
  root: Node | null;
  data: T;
}

/**
 * Reads one YAML input file of the user's (a scenario, a recording, `concord.config.yml`) the same way: its
 * size bounded, a syntax error at its real line and column with the source line and a caret, the shape
 * checked node by node, and aliases expanded only so far. Every problem is an InputError with its place.
 */
export function readYamlInput<T>(
  file: string,
  source: string,
  shape: Shape,
  where: string,
  options: {
    hint: string;
    allowEmpty?: boolean;
    jsExpressionsAt?: { allowed: (keys: readonly (string | number)[]) => boolean; where: string };
  },
): YamlInput<T> {
  const loc = new Locator(file);
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_INPUT_BYTES) {
    throw new InputError(
      file,
      1,
      1,
      `the file is ${bytes} bytes, more than a ${where} may be (${MAX_INPUT_BYTES})`,
      'split it, or move large data into a fixture plugin',
    );
  }
  const jsExpressions = options.jsExpressionsAt;
  const doc = parseDocument(source, {
    lineCounter: loc.lines,
    prettyErrors: false,
    uniqueKeys: true,
    customTags: jsExpressions ? [TEXT_BINARY_TAG, JS_EXPR_TAG] : [TEXT_BINARY_TAG],
  });
  refuseSyntaxError(file, source, loc, doc, options.hint);
  refuseUnknownTags(file, source, loc, doc, where, jsExpressions);
  loc.document = doc;
  const root = doc.contents as Node | null;
  if (root === null && options.allowEmpty) return { loc, root, data: {} as T };
  check(loc, root, shape, where);
  try {
    // Aliases are expanded here: a document whose aliases multiply (an alias bomb) is refused, not built.
    return { loc, root, data: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as T };
  } catch (error) {
    throw new InputError(
      file,
      1,
      1,
      `its anchors and aliases expand too far (${(error as Error).message})`,
      'write the repeated parts out, or use fewer aliases',
    );
  }
}

/** A syntax error of `doc` at its real line and column, with the source line and a caret. */
function refuseSyntaxError(file: string, source: string, loc: Locator, doc: Document, hint: string): void {
  const [syntax] = doc.errors;
  if (!syntax) return;
  const { line, col } = syntaxErrorPlace(source, loc.lines, syntax);
  // The parser recurses once per level: lists or maps nested thousands deep exhaust its stack.
  const tooDeep = syntax.code === 'RESOURCE_EXHAUSTION';
  const problem = tooDeep
    ? 'nested too deeply to read (the parser ran out of stack here)'
    : `not valid YAML: ${syntax.message.split('\n')[0]}`;
  throw new InputError(
    file,
    line,
    col,
    `${problem}\n${sourceExcerpt(source, line, col)}`,
    tooDeep ? 'nest lists and maps a few levels deep, not thousands' : hint,
  );
}

/**
 * A tag yaml does not know would be read as a plain string without a word: the value would silently differ from what
 * the author meant. `!!js` is read only where `jsExpressions` allows it (cordis's loader evaluates it there).
 */
function refuseUnknownTags(
  file: string,
  source: string,
  loc: Locator,
  doc: Document,
  where: string,
  jsExpressions: { allowed: (keys: readonly (string | number)[]) => boolean; where: string } | undefined,
): void {
  const unknownTag = doc.warnings.find((warning) => warning.code === 'TAG_RESOLVE_FAILED');
  if (unknownTag) {
    const { line, col } = loc.lines.linePos(unknownTag.pos[0]);
    const tag = /tag: (\S+)/.exec(unknownTag.message)?.[1] ?? 'a tag';
    const js = jsExpressions
      ? `; !!js (an expression cordis's loader evaluates) is read in ${jsExpressions.where}`
      : '';
    throw new InputError(
      file,
      line,
      col,
      `unknown tag ${tag}: a ${where} is plain YAML${js}\n${sourceExcerpt(source, line, col)}`,
      'remove the tag and write the value itself',
    );
  }
  if (!jsExpressions) return;
  visit(doc, {
    Scalar(key, node, path) {
      if (node.tag !== JS_EXPR_TAG.tag) return;
      if (key !== 'key' && jsExpressions.allowed(keysTo(path, node))) return;
      const { line, col } = loc.lines.linePos(node.range?.[0] ?? 0);
      throw new InputError(
        file,
        line,
        col,
        `!!js is read only in ${jsExpressions.where}: cordis's loader evaluates it there as the app starts\n${sourceExcerpt(source, line, col)}`,
        'write the value itself here',
      );
    },
  });
}

/** The keys and indexes from the document's root down to `node`, from the ancestors `visit` hands over. */
function keysTo(path: readonly unknown[], node: unknown): (string | number)[] {
  const keys: (string | number)[] = [];
  path.forEach((ancestor, i) => {
    const next = path[i + 1] ?? node;
    if (isPair(ancestor)) keys.push(isScalar(ancestor.key) ? String(ancestor.key.value) : String(ancestor.key));
    else if (isSeq(ancestor)) keys.push(ancestor.items.indexOf(next as never));
  });
  return keys;
}
