import { tmpdir } from 'node:os';
import { type Document, visit } from 'yaml';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import type { JsonValue } from '../../runtimes/seam/types.js';
import { inside } from '../guarded/inside.js';
import { literalPattern } from '../text/literal-pattern.js';
import type { Redaction } from './redactions.js';

/** An ISO-8601 calendar date, alone or opening a timestamp (the day checked loosely: 01–31). */
const DATE = String.raw`\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])`;
const TIMESTAMP = new RegExp(
  String.raw`\b${DATE}[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?(?![\w:])`,
  'g',
);
const DATE_ALONE = new RegExp(String.raw`\b${DATE}\b(?![T:]\d)`, 'g');

/**
 * Replaces volatile values with numbered tokens. One normalizer serves all files of one scenario × runtime,
 * so the same value gets the same token everywhere (`<tmp-1>` in cordis.yml and in the transcript) and two
 * different values never share one.
 */
export class Normalizer {
  private readonly tokens = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly rules: Array<{ kind: string; pattern: RegExp }>;
  /** Values the project's scoped redactions found volatile, replaced wherever they show: value → kind. */
  private readonly literals = new Map<string, string>();

  private readonly places: Array<{ pattern: RegExp; replace: (match: string, ...groups: string[]) => string }>;

  /**
   * `root` is the project root: paths below it become `<root>/…`; `concord` is where concord is installed.
   * `redactions` are the project's own (`concord.config.yml`); the unscoped ones apply to all text before
   * the built-in rules.
   */
  constructor(root: string, concord = packageRoot(), redactions: readonly Redaction[] = []) {
    const tmp = literalPattern(tmpdir().replace(/\/+$/, ''));
    // Machine paths never reach a snapshot: a file inside an installed package is named by the package and
    // its subpath, concord's own files (wherever concord is installed) by `concord/…`, the project by `<root>`.
    this.places = [
      {
        pattern: new RegExp(
          `(?:${literalPattern(root)}|${literalPattern(concord)})?/(?:[^\\s'"\`:]*/)?node_modules/((?:@[^/\\s'"\`]+/)?[^/\\s'"\`]+)`,
          'g',
        ),
        replace: (_m, name) => name!,
      },
      ...(inside(root, concord) ? [] : [{ pattern: wholePath(concord), replace: () => 'concord' }]),
      { pattern: wholePath(root), replace: () => '<root>' },
    ];
    this.rules = [
      ...redactions
        .filter((r) => r.tool === undefined && r.path === undefined)
        .map((r) => ({ kind: r.placeholder, pattern: r.pattern })),
      { kind: 'tmp', pattern: new RegExp(`${tmp}/[^\\s'"\`:,;)\\]}>]+`, 'g') },
      { kind: 'uuid', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi },
      { kind: 'timestamp', pattern: TIMESTAMP },
      { kind: 'date', pattern: DATE_ALONE },
      // Container ids: full (64) or short (12) hex.
      { kind: 'container', pattern: /\b(?:[0-9a-f]{64}|[0-9a-f]{12})\b/g },
      { kind: 'duration', pattern: /\b\d+(?:\.\d+)?\s?(?:ms|s)\b(?=[^A-Za-z]|$)/g },
      { kind: 'pid', pattern: /\bpid[ =:]?\d+\b/gi },
    ];
  }

  /** Marks `value` volatile wherever it shows, as a `kind` token (a scoped redaction found it). */
  volatile(kind: string, value: string): void {
    if (value !== '' && !this.literals.has(value)) this.literals.set(value, kind);
  }

  text(input: string): string {
    let out = input;
    for (const { pattern, replace } of this.places) out = out.replace(pattern, replace);
    if (this.literals.size > 0) {
      // Longest first, so a value that contains another is replaced whole.
      const values = [...this.literals.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
      // Whole values only: a volatile `17` does not take the digits out of `2017`.
      out = out.replace(
        new RegExp(`(?<![\\p{L}\\p{N}_])(?:${values.map(literalPattern).join('|')})(?![\\p{L}\\p{N}_])`, 'gu'),
        (value) => this.token(this.literals.get(value)!, value),
      );
    }
    for (const { kind, pattern } of this.rules) out = out.replace(pattern, (value) => this.token(kind, value));
    return out;
  }

  /**
   * `text` applied to every string of a YAML document, keys too, in the order it prints them: a value shows
   * in the file as its normalized form does, however the original would have been quoted. A node that
   * shows twice (an alias) is normalized once, where it is anchored.
   */
  strings(doc: Document): void {
    visit(doc, {
      Scalar: (_key, node) => {
        if (typeof node.value === 'string') node.value = this.text(node.value);
      },
    });
  }

  /** `text` applied to every string of JSON data, keys too, in the order `JSON.stringify` prints them. */
  json(data: JsonValue): JsonValue {
    if (typeof data === 'string') return this.text(data);
    if (Array.isArray(data)) return data.map((item) => this.json(item));
    if (data !== null && typeof data === 'object')
      return Object.fromEntries(Object.entries(data).map(([key, item]) => [this.text(key), this.json(item)]));
    return data;
  }

  private token(kind: string, value: string): string {
    const key = `${kind}\0${value}`;
    let token = this.tokens.get(key);
    if (token === undefined) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      token = `<${kind}-${n}>`;
      this.tokens.set(key, token);
    }
    return token;
  }
}

/**
 * A folder's path only where it is a whole path or a path's leading folders: `/w/concord` in `/w/concord/x`
 * but not in `/w/concord-api/x` (a sibling whose name it prefixes) nor in `/x/w/concord`.
 */
function wholePath(folder: string): RegExp {
  const nameChar = String.raw`[\p{L}\p{N}\p{M}_.~+@-]`;
  return new RegExp(`(?<!${nameChar})${literalPattern(folder)}(?!${nameChar})`, 'gu');
}
