import type { SyntaxNode } from '@lezer/common';
import { parser as pythonParser } from '@lezer/python';
import type TypeScript from 'typescript';
import { type SectionFence, sectionFences } from '../../../contract/sdk-section.js';
import type { Language } from '../../../runtimes/seam/types.js';
import { compilerOutOfStack, parseErrors, typescript } from '../../../runtimes/seam/typescript.js';
import { parseTypeScript } from './unfenced-declarations.js';

/** Top-level Python statements that declare (names, types, functions) rather than run a program. */
const PYTHON_DECLARATIONS: ReadonlySet<string> = new Set([
  'ImportStatement',
  'ClassDefinition',
  'FunctionDefinition',
  'DecoratedStatement',
  'AssignStatement',
  'TypeDefinition',
  'PassStatement',
  'Comment',
]);

/** An expression statement that runs nothing: a docstring, or `...`. */
const INERT_EXPRESSIONS: ReadonlySet<string> = new Set(['String', 'FormatString', 'Ellipsis']);

/** What a declaration may call: typing's constructors of types (`Movie = TypedDict("Movie", {…})`, `T = TypeVar("T")`). */
const TYPE_CONSTRUCTOR =
  /^(?:(?:typing|typing_extensions)\.)?(?:TypedDict|NamedTuple|TypeVar|TypeVarTuple|ParamSpec|NewType|TypeAliasType)$/;

/** Whether an assignment only names a type: it awaits nothing and calls nothing but a type constructor. */
function assignsType(code: string, node: SyntaxNode): boolean {
  const cursor = node.cursor();
  while (cursor.next() && cursor.from < node.to) {
    if (cursor.name === 'AwaitExpression') return false;
    if (cursor.name === 'CallExpression') {
      const callee = cursor.node.firstChild;
      if (callee === null || !TYPE_CONSTRUCTOR.test(code.slice(callee.from, callee.to))) return false;
    }
  }
  return true;
}

function pythonDeclaresOnly(code: string): boolean {
  const tree = pythonParser.parse(code);
  let broken = false;
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) broken = true;
      return !broken;
    },
  });
  if (broken) return false;
  let declares = false;
  for (let node = tree.topNode.firstChild; node !== null; node = node.nextSibling) {
    if (node.name === 'AssignStatement' && !assignsType(code, node)) return false;
    if (PYTHON_DECLARATIONS.has(node.name)) {
      declares ||= node.name !== 'Comment' && node.name !== 'PassStatement';
      continue;
    }
    const only = node.firstChild;
    const inert = node.name === 'ExpressionStatement' && only !== null && only.nextSibling === null;
    if (!inert || !INERT_EXPRESSIONS.has(only.name)) return false;
  }
  return declares;
}

/** Whether a TypeScript statement only declares: a type, an interface, or a value with `declare` and no body. */
function declaresOnly(ts: typeof TypeScript, statement: TypeScript.Statement): boolean {
  switch (statement.kind) {
    case ts.SyntaxKind.InterfaceDeclaration:
    case ts.SyntaxKind.TypeAliasDeclaration:
    case ts.SyntaxKind.ImportDeclaration:
    case ts.SyntaxKind.ExportDeclaration:
      return true;
    case ts.SyntaxKind.FunctionDeclaration:
      return (statement as TypeScript.FunctionDeclaration).body === undefined;
    case ts.SyntaxKind.ModuleDeclaration:
    case ts.SyntaxKind.ClassDeclaration:
    case ts.SyntaxKind.EnumDeclaration:
    case ts.SyntaxKind.VariableStatement:
      return (ts.getModifiers(statement as TypeScript.HasModifiers) ?? []).some(
        (modifier) => modifier.kind === ts.SyntaxKind.DeclareKeyword,
      );
    default:
      return false;
  }
}

function typescriptDeclaresOnly(code: string): boolean {
  const ts = typescript();
  const source = parseTypeScript(code);
  if (parseErrors(source).length > 0) return false;
  const statements = source.statements.filter((statement) => statement.kind !== ts.SyntaxKind.EmptyStatement);
  return statements.length > 0 && statements.every((statement) => declaresOnly(ts, statement));
}

/**
 * Whether a fence's code only declares, in its language: types, classes, functions and names a program calls,
 * with no statement that runs (an example program computes, awaits or ends with a value). Code that does not
 * parse, or holds nothing but comments, declares nothing.
 */
export function holdsOnlyDeclarations(language: Language, code: string): boolean {
  try {
    return language === 'python' ? pythonDeclaresOnly(code) : typescriptDeclaresOnly(code);
  } catch (thrown) {
    // A parser that runs out of stack on deeply nested code reads nothing of it.
    if (compilerOutOfStack(thrown)) return false;
    throw thrown;
  }
}

/** An SDK that stands in several fences of a text, joined as one `tools:sdk` section. */
export interface JoinedFences {
  section: string;
  /** The 1-based lines of the fences that were joined, in order. */
  lines: number[];
}

/**
 * The SDK of a text whose fences naming one language are both declarations and example programs, as some
 * renderers write a code tool's description (an example program, then the types in one fence and the functions
 * in the next): a `tools:sdk` section whose one block is the declaring fences' code, joined in order where the
 * first of them stood; the others removed, and each example fence kept in the prose without its language.
 * Undefined unless at least two fences name a language, all the same one and all closed, and at least one of them
 * only declares.
 */
export function joinedDeclarationFences(text: string): JoinedFences | undefined {
  const fences = sectionFences(text);
  const named = fences.filter((fence) => fence.language !== undefined);
  const language = named[0]?.language;
  if (named.length < 2 || named.some((fence) => fence.language !== language || fence.closing === undefined))
    return undefined;
  const declaring = new Set(named.filter((fence) => holdsOnlyDeclarations(language!, fence.body)));
  if (declaring.size === 0) return undefined;
  const [first] = declaring;
  let section = '';
  let at = 0;
  for (const fence of named) {
    section += text.slice(at, fence.start);
    at = fence.end;
    if (fence === first) {
      const code = [...declaring].map((part) => part.body.replace(/\n+$/, '\n')).join('\n\n');
      section += `${fence.opening}\n${code}${fence.closing!}\n`;
    } else if (!declaring.has(fence)) {
      section += `${proseOpening(fence)}\n${fence.body}${fence.closing!}\n`;
    }
  }
  section += text.slice(at);
  return { section, lines: [...declaring].map((fence) => fence.line) };
}

/** The fence's opening line without its info string: the code it opens is prose of the section. */
function proseOpening(fence: SectionFence): string {
  return fence.opening.replace(/^(\s*(?:`+|~+)).*$/, '$1');
}

/**
 * How a place names an SDK read from fences beside examples: ` (the declarations of its fences at lines 12 and 22,
 * joined)`, ` (the declarations of its fence at line 12)`.
 */
export function joinedPlace(lines: readonly number[]): string {
  if (lines.length === 1) return ` (the declarations of its fence at line ${lines[0]})`;
  return ` (the declarations of its fences at lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)}, joined)`;
}
