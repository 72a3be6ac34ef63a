import type TypeScript from 'typescript';
import { sectionFences } from '../../../contract/sdk-section.js';
import { typescript } from '../../../runtimes/seam/typescript.js';

/** TypeScript declarations found in prose without a fence, and the prose around them, exactly. */
export interface UnfencedDeclarations {
  before: string;
  /** Whole lines, each ending in a line break. */
  code: string;
  after: string;
}

/** The last line that declares a value at the top level: the object a program calls the tools on. */
const TOOLS_DECLARATION = /^declare\s+(?:const|let|var)\s/;

/** What a line of declarations (or a line inside one) may start with; anything else at column 0 is prose. */
const DECLARATION_LINE =
  /^(?:$|\s|\/\/|\/\*|\*|[}\])|&]|(?:declare|type|interface|export|namespace|enum|import|abstract|class|function)\b)/;

type ParsedSource = TypeScript.SourceFile & { parseDiagnostics?: readonly TypeScript.DiagnosticWithLocation[] };

/**
 * The TypeScript declarations a text holds unfenced, as a renderer writes them into its code tool's description
 * (prose, then the types and `declare const codemode: {…}`, then prose): the lines from where the declarations start
 * above the last `declare const|let|var` at column 0 to the end of that statement, when the compiler parses them
 * without an error. Undefined when there is no such statement or the lines are not TypeScript: a guess at where
 * prose ends would make findings of prose.
 */
export function unfencedDeclarations(text: string): UnfencedDeclarations | undefined {
  const lines = text.split('\n');
  let last = -1;
  for (let i = lines.length - 1; i >= 0 && last < 0; i--) if (TOOLS_DECLARATION.test(lines[i]!)) last = i;
  if (last < 0) return undefined;
  let first = last;
  while (first > 0 && DECLARATION_LINE.test(lines[first - 1]!)) first--;
  while (first < last && lines[first]!.trim() === '') first++;
  const start = lines.slice(0, first).reduce((offset, line) => offset + line.length + 1, 0);
  // The statement's end is the parser's: the prose after it parses as (broken) statements of its own.
  const rest = parse(text.slice(start));
  const lastStart = lines.slice(first, last).reduce((offset, line) => offset + line.length + 1, 0);
  const statement = rest.statements.find((node) => node.getStart(rest) === lastStart);
  if (statement === undefined || !typescript().isVariableStatement(statement)) return undefined;
  const lineEnd = text.indexOf('\n', start + statement.end);
  const end = lineEnd < 0 ? text.length : lineEnd + 1;
  const code = text.slice(start, end);
  // Alone, the lines must parse without an error (a statement cut short by prose, as `{ a: string;` then a
  // sentence, ends where the parser gave up).
  if ((parse(code).parseDiagnostics ?? []).length > 0) return undefined;
  return { before: text.slice(0, start), code: code.endsWith('\n') ? code : `${code}\n`, after: text.slice(end) };
}

function parse(text: string): ParsedSource {
  const ts = typescript();
  return ts.createSourceFile('description.ts', text, ts.ScriptTarget.Latest, false) as ParsedSource;
}

/**
 * A text whose TypeScript declarations are not in a fence naming the language, as a `tools:sdk` section: the
 * declarations fenced as ` ```ts `, or the one fence without an info string that holds nothing else given the
 * info string. Undefined when there are no such declarations, or they stand partly inside a fence.
 */
export function declarationsSection(text: string): string | undefined {
  const fences = sectionFences(text);
  const opening = '```ts\n';
  const whole = fences.filter((fence) => {
    const found = fence.closing === undefined ? undefined : unfencedDeclarations(fence.body);
    return found !== undefined && found.before.trim() === '' && found.after.trim() === '';
  });
  if (whole.length === 1) {
    const [fence] = whole as [(typeof fences)[number]];
    return `${text.slice(0, fence.start)}${opening}${fence.body}\`\`\`\n${text.slice(fence.end)}`;
  }
  const found = unfencedDeclarations(text);
  if (found === undefined) return undefined;
  const start = found.before.length;
  const end = text.length - found.after.length;
  if (fences.some((fence) => fence.start < end && fence.end > start)) return undefined;
  return `${found.before}${opening}${found.code}\`\`\`\n${found.after}`;
}
