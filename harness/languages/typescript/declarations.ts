import type TypeScript from 'typescript';
import { parseErrors, typescript } from '../../../runtimes/seam/typescript.js';
import { parseTypeScript } from './unfenced.js';

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

/**
 * Whether TypeScript code only declares: types, interfaces, and values with `declare` and no body. Code that does
 * not parse, or holds nothing but comments, declares nothing.
 */
export function typescriptDeclaresOnly(code: string): boolean {
  const ts = typescript();
  const source = parseTypeScript(code);
  if (parseErrors(source).length > 0) return false;
  const statements = source.statements.filter((statement) => statement.kind !== ts.SyntaxKind.EmptyStatement);
  return statements.length > 0 && statements.every((statement) => declaresOnly(ts, statement));
}

/**
 * Whether TypeScript code declares anything a program could call or name: a type, an interface, an enum, a namespace,
 * or a value with `declare`. An example program declares nothing; declarations that do not parse still declare what
 * they write, so the checks can say why they fail.
 */
export function typescriptDeclaresSome(code: string): boolean {
  const ts = typescript();
  const naming: ReadonlySet<TypeScript.SyntaxKind> = new Set([
    ts.SyntaxKind.InterfaceDeclaration,
    ts.SyntaxKind.TypeAliasDeclaration,
    ts.SyntaxKind.EnumDeclaration,
    ts.SyntaxKind.ModuleDeclaration,
  ]);
  return parseTypeScript(code).statements.some(
    (statement) =>
      naming.has(statement.kind) ||
      (statement.kind !== ts.SyntaxKind.ImportDeclaration &&
        statement.kind !== ts.SyntaxKind.ExportDeclaration &&
        declaresOnly(ts, statement)),
  );
}
