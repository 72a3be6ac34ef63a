import type TypeScript from 'typescript';
import { sectionFences } from '../../../contract/sdk-section.js';
import { textLines } from '../../../contract/text-lines.js';
import { compilerOutOfStack, parseErrors, typescript } from '../../../runtimes/seam/typescript.js';

/** TypeScript declarations found in prose without a fence, and the prose around them, exactly. */
export interface UnfencedDeclarations {
  before: string;
  /** Whole lines, each ending in a line feed (whatever the text's line endings). */
  code: string;
  after: string;
}

/** The last line that declares a value at the top level: the object a program calls the tools on. */
const TOOLS_DECLARATION = /^declare\s+(?:const|let|var)\s/;

/** What a line of declarations (or a line inside one) may start with; anything else at column 0 is prose. */
const DECLARATION_LINE =
  /^(?:$|\s|\/\/|\/\*|\*|[}\])|&]|(?:declare|type|interface|export|namespace|enum|import|abstract|class|function)\b)/;

/** Why declarations a text seems to hold were not taken: a place in the text (1-based lines) and what is wrong. */
export interface DeclarationsProblem {
  problem: string;
}

/**
 * The TypeScript declarations a text holds unfenced, as a renderer writes them into its code tool's description
 * (prose, then the types and `declare const codemode: {…}`, then prose): the lines from where the declarations start
 * above the last `declare const|let|var` at column 0 to the end of that statement, when the compiler parses them
 * without an error. Undefined when there is no such statement; a problem when the lines are not TypeScript, since a
 * guess at where prose ends would make findings of prose.
 */
export function unfencedDeclarations(text: string): UnfencedDeclarations | DeclarationsProblem | undefined {
  try {
    return readDeclarations(text);
  } catch (thrown) {
    if (!compilerOutOfStack(thrown)) throw thrown;
    return {
      problem: 'TypeScript declarations nested deeper than the TypeScript compiler can read (it ran out of stack)',
    };
  }
}

function readDeclarations(text: string): UnfencedDeclarations | DeclarationsProblem | undefined {
  const lines = textLines(text);
  let last = -1;
  for (let i = lines.length - 1; i >= 0 && last < 0; i--) if (TOOLS_DECLARATION.test(lines[i]!.text)) last = i;
  if (last < 0) return undefined;
  let first = last;
  while (first > 0 && DECLARATION_LINE.test(lines[first - 1]!.text)) first--;
  while (first < last && lines[first]!.text.trim() === '') first++;
  const start = lines[first]!.start;
  // The statement's end is the parser's: the prose after it parses as (broken) statements of its own.
  const rest = parseTypeScript(text.slice(start));
  const lastStart = lines[last]!.start - start;
  const statement = rest.statements.find((node) => node.getStart(rest) === lastStart);
  const end = statement === undefined ? lines[last]!.start + lines[last]!.text.length : start + statement.end;
  // The declarations run to the end of the line the statement ends on.
  let through = last;
  while (through + 1 < lines.length && lines[through]!.end <= end) through++;
  const stop = lines[through]!.end;
  const code = lines
    .slice(first, through + 1)
    .map((line) => `${line.text}\n`)
    .join('');
  // Alone, the lines must parse without an error (a statement cut short by prose, as `{ a: string;` then a
  // sentence, ends where the parser gave up).
  const parsed = parseTypeScript(code);
  const [error] = parseErrors(parsed);
  if (error !== undefined || statement === undefined) {
    const place = through === first ? `line ${first + 1}` : `lines ${first + 1}-${through + 1}`;
    return { problem: `TypeScript declarations at ${place} that do not parse: ${parseError(parsed, error, first)}` };
  }
  return { before: text.slice(0, start), code, after: text.slice(stop) };
}

/** The compiler's first complaint about `parsed`, placed in the text whose line `offset + 1` it starts at. */
function parseError(
  parsed: TypeScript.SourceFile,
  error: TypeScript.DiagnosticWithLocation | undefined,
  offset: number,
): string {
  if (error === undefined) return 'the last `declare` line does not begin a statement';
  const at = parsed.getLineAndCharacterOfPosition(error.start);
  const message = typescript().flattenDiagnosticMessageText(error.messageText, ' ');
  return `${message} (line ${offset + at.line + 1}, column ${at.character + 1})`;
}

/** `text` as the compiler parses a TypeScript file (declarations read from prose or a fence). */
export function parseTypeScript(text: string): TypeScript.SourceFile {
  const ts = typescript();
  return ts.createSourceFile('description.ts', text, ts.ScriptTarget.Latest, false);
}

/**
 * A text whose TypeScript declarations are not in a fence naming the language, as a `tools:sdk` section: the
 * declarations fenced as ` ```ts `, or the one fence without an info string that holds nothing else given the
 * info string. Undefined when there are no declarations; a problem when they do not parse or stand partly inside
 * a fence.
 */
export function declarationsSection(text: string): { section: string } | DeclarationsProblem | undefined {
  const fences = sectionFences(text);
  const opening = '```ts\n';
  const whole = fences.filter((fence) => {
    const found = fence.closing === undefined ? undefined : unfencedDeclarations(fence.body);
    return found !== undefined && 'code' in found && found.before.trim() === '' && found.after.trim() === '';
  });
  if (whole.length === 1) {
    const [fence] = whole as [(typeof fences)[number]];
    return { section: `${text.slice(0, fence.start)}${opening}${fence.body}\`\`\`\n${text.slice(fence.end)}` };
  }
  const found = unfencedDeclarations(text);
  if (found === undefined || 'problem' in found) return found;
  const start = found.before.length;
  const end = text.length - found.after.length;
  const crossed = fences.find((fence) => fence.start < end && fence.end > start);
  if (crossed !== undefined)
    return { problem: `TypeScript declarations standing partly inside the fence at line ${crossed.line}` };
  return { section: `${found.before}${opening}${found.code}\`\`\`\n${found.after}` };
}
