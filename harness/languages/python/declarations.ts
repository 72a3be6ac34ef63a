import type { SyntaxNode } from '@lezer/common';
import { parsePython } from './parse.js';

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

/**
 * Whether Python code only declares: classes, functions, imports and names bound to types, with no statement that
 * runs. Code that does not parse, or holds nothing but comments, declares nothing.
 */
export function pythonDeclaresOnly(code: string): boolean {
  const tree = parsePython(code);
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

/** Top-level Python statements that name something a program calls or a type it uses. */
const PYTHON_NAMING: ReadonlySet<string> = new Set([
  'ClassDefinition',
  'FunctionDefinition',
  'DecoratedStatement',
  'TypeDefinition',
]);

/**
 * Whether Python code declares anything a program could call or name: a class, a function or a type alias (every
 * SDK has one; a name bound alone, `color: blue` in a settings file, is none). An example program that only runs
 * declares nothing; a stub that does not parse still declares what it writes, so the judges can say why it fails.
 */
export function pythonDeclaresSome(code: string): boolean {
  const tree = parsePython(code);
  for (let node = tree.topNode.firstChild; node !== null; node = node.nextSibling)
    if (PYTHON_NAMING.has(node.name)) return true;
  return false;
}
