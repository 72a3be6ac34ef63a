import type TypeScript from 'typescript';
import { compilerOutOfStack, typescript } from '../seam/typescript.js';

/**
 * Turns a TypeScript program (the body of an async function) into JavaScript by erasing its types with
 * the TypeScript compiler. Only erasable syntax is accepted: syntax that makes the compiler generate code
 * (`enum`, a `namespace` holding values, constructor parameter properties, `import x = …`, `export =`)
 * is refused with a clear message instead of being compiled into something the program did not say.
 */

export type StripResult = { code: string } | { error: { name: 'SyntaxError'; message: string } };

type Ts = typeof TypeScript;

/** File name shown in errors and stack traces of programs. */
export const PROGRAM_FILE = 'program.ts';

const ERASABLE_HINT =
  'only TypeScript syntax that can be erased is supported (types, interfaces, annotations, `as`, `satisfies`)';

/** The line (1-based, in the program's own numbering) of a position in the wrapped source. */
function programLine(source: TypeScript.SourceFile, position: number): number {
  // Line 0 of the wrapped source is the wrapper's opening line.
  return source.getLineAndCharacterOfPosition(position).line;
}

function isTypeOnlyNamespace(ts: Ts, declaration: TypeScript.ModuleDeclaration): boolean {
  const body = declaration.body;
  if (body === undefined) return true;
  if (ts.isModuleDeclaration(body)) return isTypeOnlyNamespace(ts, body);
  if (!ts.isModuleBlock(body)) return false;
  return body.statements.every(
    (statement) =>
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      (ts.isModuleDeclaration(statement) && isTypeOnlyNamespace(ts, statement)),
  );
}

function hasModifier(ts: Ts, node: TypeScript.Node, kind: TypeScript.SyntaxKind): boolean {
  return ts.canHaveModifiers(node) && (ts.getModifiers(node)?.some((modifier) => modifier.kind === kind) ?? false);
}

/** Why a node cannot run in a program (dynamic import), or undefined when it can. */
function unavailable(ts: Ts, node: TypeScript.Node): string | undefined {
  if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
    return '`import()` is not available: a program reaches the outside only through its bindings';
  }
  return undefined;
}

/** Why a node needs code generation, or undefined when erasing its types is enough. */
function nonErasable(ts: Ts, node: TypeScript.Node): string | undefined {
  const declared = hasModifier(ts, node, ts.SyntaxKind.DeclareKeyword);
  if (ts.isEnumDeclaration(node)) {
    const constant = hasModifier(ts, node, ts.SyntaxKind.ConstKeyword);
    if (!declared || constant)
      return '`enum` declarations generate code; use a union of string literals or a plain object';
  }
  if (ts.isModuleDeclaration(node) && !declared && !isTypeOnlyNamespace(ts, node)) {
    return '`namespace` declarations holding values generate code; use a plain object';
  }
  if (ts.isParameter(node) && ts.isConstructorDeclaration(node.parent)) {
    const property = [
      ts.SyntaxKind.PublicKeyword,
      ts.SyntaxKind.PrivateKeyword,
      ts.SyntaxKind.ProtectedKeyword,
      ts.SyntaxKind.ReadonlyKeyword,
      ts.SyntaxKind.OverrideKeyword,
    ].some((kind) => hasModifier(ts, node, kind));
    if (property)
      return 'constructor parameter properties generate code; declare the field and assign it in the constructor';
  }
  if (ts.isImportEqualsDeclaration(node) && !node.isTypeOnly) return '`import … =` aliases generate code; use `const`';
  if (ts.isExportAssignment(node) && node.isExportEquals) return '`export =` is not erasable';
  return undefined;
}

/** The parser's own record of a source file, read only where the installed compiler provides it. */
interface ParsedRecord {
  parseDiagnostics?: unknown;
  transformFlags?: unknown;
}

/**
 * True when the compiler would emit the program unchanged apart from layout: it parsed cleanly and holds
 * no syntax that erasing or lowering to ES2022 rewrites. Such a program runs as written, which spares the
 * transpiler's per-call setup (most of a run's cost). Uses parser fields outside the compiler's declared
 * API; where they are missing, the answer is false and the full transpile runs.
 */
function emitsUnchanged(ts: Ts, source: TypeScript.SourceFile): boolean {
  const { parseDiagnostics, transformFlags } = source as unknown as ParsedRecord;
  const flags = (ts as unknown as { TransformFlags?: Record<string, number> }).TransformFlags;
  if (!Array.isArray(parseDiagnostics) || typeof transformFlags !== 'number' || flags === undefined) return false;
  const rewritten = [
    'ContainsTypeScript',
    'ContainsTypeScriptClassSyntax',
    'ContainsJsx',
    'ContainsESNext',
    'ContainsDecorators',
  ];
  let mask = 0;
  for (const name of rewritten) {
    const flag = flags[name];
    if (typeof flag !== 'number') return false;
    mask |= flag;
  }
  return parseDiagnostics.length === 0 && (transformFlags & mask) === 0;
}

/** Erases the types of the wrapped program, or says why its syntax is wrong. */
function transpile(ts: Ts, wrapped: string): StripResult {
  const output = ts.transpileModule(wrapped, {
    fileName: PROGRAM_FILE,
    reportDiagnostics: true,
    // Programs run in strict mode, as modules do.
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      alwaysStrict: true,
      sourceMap: false,
    },
  });
  const diagnostics = output.diagnostics ?? [];
  if (diagnostics.length === 0) return { code: output.outputText };
  const messages = diagnostics.map((diagnostic) => {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (diagnostic.start === undefined || diagnostic.file === undefined) return text;
    return `${PROGRAM_FILE} line ${programLine(diagnostic.file, diagnostic.start)}: ${text}`;
  });
  return { error: { name: 'SyntaxError', message: messages.join('\n') } };
}

/**
 * Wraps the program as `(async function (<globals>) { … })`, checks it, and erases its types.
 * `globals` are the validated, portable binding names the function receives as parameters. A program nested deeper
 * than the compiler can read is a SyntaxError, as CPython makes one of too many nested brackets.
 */
export async function stripTypes(program: string, globals: readonly string[]): Promise<StripResult> {
  try {
    return strip(program, globals);
  } catch (error) {
    if (!compilerOutOfStack(error)) throw error;
    const message = `${PROGRAM_FILE}: the program nests too deeply to read (the TypeScript compiler ran out of stack)`;
    return { error: { name: 'SyntaxError', message } };
  }
}

function strip(program: string, globals: readonly string[]): StripResult {
  const ts = typescript();
  const wrapped = `(async function (${globals.join(', ')}) {\n${program}\n})`;
  const source = ts.createSourceFile(PROGRAM_FILE, wrapped, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  // Syntax errors are reported first, in the compiler's words.
  const transpiled = emitsUnchanged(ts, source) ? undefined : transpile(ts, wrapped);
  if (transpiled !== undefined && 'error' in transpiled) return transpiled;

  // The wrapper must stay one function expression: a program that closes it early is not a function body.
  const only = source.statements.length === 1 ? source.statements[0] : undefined;
  const wrapper =
    only !== undefined && ts.isExpressionStatement(only) && ts.isParenthesizedExpression(only.expression)
      ? only.expression.expression
      : undefined;
  if (wrapper === undefined || !ts.isFunctionExpression(wrapper) || wrapper.parameters.length !== globals.length) {
    return {
      error: {
        name: 'SyntaxError',
        message: 'the program is not a valid function body (check for unbalanced braces or parentheses)',
      },
    };
  }

  const pending: TypeScript.Node[] = [wrapper.body];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const refused = unavailable(ts, node);
    const problem = refused === undefined ? nonErasable(ts, node) : undefined;
    if (refused !== undefined || problem !== undefined) {
      const line = programLine(source, node.getStart(source));
      const message = refused ?? `${problem}; ${ERASABLE_HINT}`;
      return { error: { name: 'SyntaxError', message: `${PROGRAM_FILE} line ${line}: ${message}` } };
    }
    ts.forEachChild(node, (child) => {
      pending.push(child);
    });
  }

  // Strict mode, as the transpiler's output declares it.
  return transpiled ?? { code: `"use strict";\n${wrapped}` };
}
