import type ts from 'typescript';
import { typescript } from '../../../runtimes/seam/typescript.js';
import type { Declared, Reach, SdkNames } from './types.js';

/**
 * The names a TypeScript SDK block declares at its top level and the members of `tools` (its type literal,
 * or the interface / type alias it names): each reaches the tool named by its identifier or quoted text.
 */
export function typescriptSdkNames(sdk: string): SdkNames {
  const ts = typescript();
  const source = ts.createSourceFile('tools-sdk.ts', sdk, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const where = (node: ts.Node) => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return { line: line + 1, column: character + 1 };
  };
  const declared: Declared[] = [];
  const typeBodies = new Map<string, ts.NodeArray<ts.TypeElement>>();
  let toolsType: ts.TypeNode | undefined;
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        declared.push({ name: declaration.name.text, ...where(declaration.name) });
        if (declaration.name.text === 'tools') toolsType = declaration.type;
      }
      continue;
    }
    if (
      (ts.isTypeAliasDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement) ||
        ts.isFunctionDeclaration(statement) ||
        ts.isModuleDeclaration(statement)) &&
      statement.name !== undefined &&
      ts.isIdentifier(statement.name)
    ) {
      declared.push({ name: statement.name.text, ...where(statement.name) });
      if (ts.isInterfaceDeclaration(statement)) typeBodies.set(statement.name.text, statement.members);
      if (ts.isTypeAliasDeclaration(statement) && ts.isTypeLiteralNode(statement.type))
        typeBodies.set(statement.name.text, statement.type.members);
    }
  }
  const members =
    toolsType === undefined
      ? undefined
      : ts.isTypeLiteralNode(toolsType)
        ? toolsType.members
        : ts.isTypeReferenceNode(toolsType) && ts.isIdentifier(toolsType.typeName)
          ? typeBodies.get(toolsType.typeName.text)
          : undefined;
  const reaches: Reach[] = [];
  for (const member of members ?? []) {
    const name = member.name;
    if (name === undefined) continue;
    const spelled = name.getText(source);
    if (ts.isPrivateIdentifier(name)) reaches.push({ spelled, how: 'method', ...where(name) });
    else if (ts.isIdentifier(name)) reaches.push({ spelled, how: 'method', reaches: name.text, ...where(name) });
    else if (ts.isStringLiteral(name) || ts.isNumericLiteral(name) || ts.isNoSubstitutionTemplateLiteral(name))
      reaches.push({ spelled, how: 'subscript', reaches: name.text, ...where(name) });
  }
  return { declared, reaches, normalize: (name) => name };
}
