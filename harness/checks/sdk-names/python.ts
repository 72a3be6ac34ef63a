import { pythonComments, sdkParts } from '../language/sdk-parts.js';
import type { Declared, Reach, SdkNames } from './types.js';

/** A name as written at a declaration site: anything up to the next delimiter (the compiler judges validity). */
const NAME = String.raw`[^\s()\[\]:=,.#'"\\]+`;
const CLASS = new RegExp(String.raw`^class[ \t]+(${NAME})[ \t]*[(:]`, 'u');
const ASSIGNED = new RegExp(String.raw`^(${NAME})[ \t]*(?::|=(?!=))`, 'u');
const IMPORTED = /^from[ \t]+\S+[ \t]+import[ \t]+(.+)$/u;
const METHOD = new RegExp(String.raw`^([ \t]+)(?:async[ \t]+)?def[ \t]+(${NAME})[ \t]*\(`, 'u');
/** A listed tool: `# await tools["name"](…)` at the body's own indentation. */
const LISTED = /^# (?:await )?tools\[("(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*')\]/u;

/**
 * The names a Python SDK block declares at module level (classes, assignments, annotations, imports) and
 * the ways it offers to reach a tool: each method of the `Tools` class (reaching the NFKC form of its name,
 * as the compiler stores it; a private `__x` is mangled and reaches nothing) and each `tools["…"]` listing
 * in a comment of that class body. Strings and comments are blanked first, so a description cannot declare.
 */
export function pythonSdkNames(sdk: string): SdkNames {
  const code = sdkParts('python', sdk).code.split('\n');
  const declared: Declared[] = [];
  const reaches: Reach[] = [];
  let body: { start: number; indent?: string } | undefined;
  let bodyEnd = code.length;
  code.forEach((line, index) => {
    const at = index + 1;
    if (/^\S/u.test(line)) {
      if (body !== undefined && bodyEnd === code.length && index > body.start) bodyEnd = index;
      const cls = CLASS.exec(line);
      if (cls) {
        declared.push({ name: cls[1]!, line: at, column: line.indexOf(cls[1]!) + 1 });
        if (cls[1] === 'Tools') body = { start: index };
        return;
      }
      const imported = IMPORTED.exec(line);
      if (imported) {
        for (const part of imported[1]!.replace(/[()]/g, '').split(',')) {
          const name = part
            .trim()
            .split(/[ \t]+as[ \t]+/u)
            .at(-1)!
            .trim();
          if (name) declared.push({ name, line: at, column: line.indexOf(name) + 1 });
        }
        return;
      }
      const assigned = ASSIGNED.exec(line);
      if (assigned) declared.push({ name: assigned[1]!, line: at, column: 1 });
      return;
    }
    if (body === undefined || bodyEnd !== code.length || index <= body.start || line.trim() === '') return;
    const method = METHOD.exec(line);
    body.indent ??= /^[ \t]*/u.exec(line)![0];
    if (method && method[1] === body.indent) {
      const spelled = method[2]!;
      // A private `__x` is mangled inside a class body: `tools.__x` would not find it.
      const reached = spelled.startsWith('__') && !spelled.endsWith('__') ? undefined : spelled.normalize('NFKC');
      reaches.push({
        spelled,
        how: 'method',
        line: at,
        column: line.indexOf(spelled) + 1,
        ...(reached !== undefined ? { reaches: reached } : {}),
      });
    }
  });
  const firstBodyLine = body === undefined ? undefined : body.start + 1;
  if (firstBodyLine !== undefined) {
    for (const comment of pythonComments(sdk)) {
      if (comment.line <= firstBodyLine || comment.line > bodyEnd) continue;
      const listed = LISTED.exec(comment.text);
      if (!listed) continue;
      const value = decodePythonString(listed[1]!);
      if (value !== undefined)
        reaches.push({
          spelled: listed[1]!,
          how: 'subscript',
          line: comment.line,
          column: comment.column,
          reaches: value,
        });
    }
  }
  reaches.sort((a, b) => a.line - b.line);
  return { declared, reaches, normalize: (name) => name.normalize('NFKC') };
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  r: '\r',
  t: '\t',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

/** The value of a plain (unprefixed) one-line Python string literal; undefined for a form it does not know. */
export function decodePythonString(literal: string): string | undefined {
  const body = literal.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = body[++i];
    if (next === undefined) return undefined;
    const hex = { x: 2, u: 4, U: 8 }[next];
    if (hex !== undefined) {
      const digits = body.slice(i + 1, i + 1 + hex);
      if (!/^[0-9a-fA-F]+$/u.test(digits) || digits.length !== hex) return undefined;
      out += String.fromCodePoint(parseInt(digits, 16));
      i += hex;
    } else if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next];
    } else {
      out += `\\${next}`;
    }
  }
  return out;
}
