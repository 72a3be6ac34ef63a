import { tmpdir } from 'node:os';
import { packageRoot } from '../../runtimes/seam/package-root.js';
import { inside } from '../guarded/inside.js';

/**
 * Replaces volatile values with numbered tokens. One normalizer serves all files of one scenario × runtime,
 * so the same value gets the same token everywhere (`<tmp-1>` in cordis.yml and in the transcript) and two
 * different values never share one.
 */
export class Normalizer {
  private readonly tokens = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly rules: Array<{ kind: string; pattern: RegExp }>;

  private readonly places: Array<{ pattern: RegExp; replace: (match: string, ...groups: string[]) => string }>;

  /** `root` is the project root: paths below it become `<root>/…`; `concord` is where concord is installed. */
  constructor(root: string, concord = packageRoot()) {
    const tmp = escape(tmpdir().replace(/\/+$/, ''));
    // Machine paths never reach a snapshot: a file inside an installed package is named by the package and
    // its subpath, concord's own files (wherever concord is installed) by `concord/…`, the project by `<root>`.
    this.places = [
      { pattern: new RegExp(`(?:${escape(root)}|${escape(concord)})?/(?:[^\\s'"\`:]*/)?node_modules/((?:@[^/\\s'"\`]+/)?[^/\\s'"\`]+)`, 'g'), replace: (_m, name) => name! },
      ...(inside(root, concord) ? [] : [{ pattern: wholePath(concord), replace: () => 'concord' }]),
      { pattern: wholePath(root), replace: () => '<root>' },
    ];
    this.rules = [
      { kind: 'tmp', pattern: new RegExp(`${tmp}/[^\\s'"\`:,;)\\]}>]+`, 'g') },
      { kind: 'uuid', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi },
      // Container ids: full (64) or short (12) hex.
      { kind: 'container', pattern: /\b(?:[0-9a-f]{64}|[0-9a-f]{12})\b/g },
      { kind: 'duration', pattern: /\b\d+(?:\.\d+)?\s?(?:ms|s)\b(?=[^A-Za-z]|$)/g },
      { kind: 'pid', pattern: /\bpid[ =:]?\d+\b/gi },
    ];
  }

  text(input: string): string {
    let out = input;
    for (const { pattern, replace } of this.places) out = out.replace(pattern, replace);
    for (const { kind, pattern } of this.rules) out = out.replace(pattern, (value) => this.token(kind, value));
    return out;
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
  return new RegExp(`(?<!${nameChar})${escape(folder)}(?!${nameChar})`, 'gu');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
