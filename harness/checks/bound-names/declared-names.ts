import ts from 'typescript';

/** Every class a Python SDK block declares at its top level, in order. */
export function pythonClassNames(sdk: string): string[] {
  // Top-level statements start in column 0; docstrings and comments in the block are indented or start with `#`.
  return [...sdk.matchAll(/^class[ \t]+([\p{ID_Start}_][\p{ID_Continue}]*)[ \t]*[(:]/gmu)].map((m) => m[1]!);
}

/** Every name a TypeScript SDK block declares at its top level (types, interfaces, classes, values), in order. */
export function typescriptDeclaredNames(sdk: string): string[] {
  const source = ts.createSourceFile('tools-sdk.ts', sdk, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.push(declaration.name.text);
      }
    } else if (
      (ts.isTypeAliasDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name !== undefined &&
      ts.isIdentifier(statement.name)
    ) {
      names.push(statement.name.text);
    }
  }
  return names;
}
