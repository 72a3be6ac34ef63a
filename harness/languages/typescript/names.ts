import type TypeScript from 'typescript';
import { typescriptVersion } from '../../../runtimes/seam/typescript.js';
import { sha256 } from '../../cache/verdict-cache.js';
import type { Session } from '../../session.js';
import {
  type Collision,
  DEFAULT_TOOLS_OBJECT,
  type Declared,
  isSdkNames,
  type Reach,
  type SdkNames,
} from '../sdk-names.js';
import { TYPESCRIPT_COMPILER, type TypeScriptCompiler } from './compiler.js';

/** The SDK block as a script of its own: its declarations are global, as the `run_code` description promises. */
const SDK_PATH = '/concord-sdk-names/tools-sdk.ts';

/**
 * What the compiler says when two declarations are one name and cannot merge: a duplicate identifier, a block-scoped
 * variable declared again, a second function implementation, enums that cannot merge, a class merged with a class.
 */
const DUPLICATE_CODES = new Set([2300, 2451, 2393, 2567, 2813, 2814]);

/**
 * The names a TypeScript SDK block declares at its top level, and the tools it offers: the properties of the type
 * of `tools` (or of the `object` the backend's runtime binds the tools under) as the type checker resolves it,
 * whatever the block writes it as (a type literal, an interface that `extends` others, a mapped type over a union of
 * keys, an intersection, a class, a type alias, `declare namespace tools { function … }`, quoted and computed keys;
 * in a block written as a module, inside `declare global { … }`). A block that binds no value at all offers its
 * top-level functions, as for a runtime that binds each tool as a global function a program calls by name.
 * Each property reaches the tool of its name: a member a program can write as `tools.name` is a method, any other is
 * reached as `tools["name"]`. Declarations collide where the compiler says they do (an interface declared twice
 * merges, as TypeScript means it).
 */
export function typescriptSdkNames(
  compiler: TypeScriptCompiler,
  sdk: string,
  object: string = DEFAULT_TOOLS_OBJECT,
): SdkNames {
  const program = compiler.program(new Map([[SDK_PATH, sdk]]));
  const source = program.getSourceFile(SDK_PATH)!;
  const block = { ts: compiler.ts, source, checker: program.getTypeChecker() };
  const top = topLevel(block, object);
  const toolsName = top.toolsNames[0];
  const reaches =
    toolsName !== undefined
      ? propertyReaches(block, toolsName)
      : top.bindings.length === 0
        ? functionReaches(block, top.functions)
        : [];
  reaches.sort((a, b) => a.line - b.line || a.column - b.column);
  return {
    declared: top.declared.map(({ start: _, ...d }) => d),
    reaches,
    collisions: collisionsOf(program, source, top.declared),
    bindings: top.bindings,
    normalize: (name) => name,
  };
}

/** An SDK block as the compiler read it. */
interface ReadBlock {
  ts: typeof TypeScript;
  source: TypeScript.SourceFile;
  checker: TypeScript.TypeChecker;
}

/** Where a node of the block starts (1-based). */
function where({ source }: ReadBlock, node: TypeScript.Node): { line: number; column: number } {
  const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return { line: line + 1, column: character + 1 };
}

/** What the block's top level declares: names, the declarations of `object`, the values it binds, its functions. */
function topLevel(block: ReadBlock, object: string) {
  const { ts, source } = block;
  const declared: Array<Declared & { start: number }> = [];
  const toolsNames: TypeScript.Identifier[] = [];
  const bindings: string[] = [];
  const functions: TypeScript.Identifier[] = [];
  const declare = (name: TypeScript.Identifier) =>
    declared.push({ name: name.text, ...where(block, name), start: name.getStart(source) });
  // A block written as a module declares its globals in `declare global { … }`: they are read as the top level's.
  const globalStatements = (statements: Iterable<TypeScript.Statement>): TypeScript.Statement[] =>
    [...statements].flatMap((statement) =>
      ts.isModuleDeclaration(statement) &&
      (statement.flags & ts.NodeFlags.GlobalAugmentation) !== 0 &&
      statement.body !== undefined &&
      ts.isModuleBlock(statement.body)
        ? globalStatements(statement.body.statements)
        : [statement],
    );
  for (const statement of globalStatements(source.statements)) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        declare(declaration.name);
        bindings.push(declaration.name.text);
        if (declaration.name.text === object) toolsNames.push(declaration.name);
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
      declare(statement.name);
      const isValue = !ts.isTypeAliasDeclaration(statement) && !ts.isInterfaceDeclaration(statement);
      if (ts.isModuleDeclaration(statement)) bindings.push(statement.name.text);
      if (ts.isFunctionDeclaration(statement)) functions.push(statement.name);
      if (isValue && statement.name.text === object) toolsNames.push(statement.name);
    }
  }
  return { declared, toolsNames, bindings, functions };
}

/** Each property of the tools object's type, as the checker resolves it, reaching the tool of its name. */
function propertyReaches(block: ReadBlock, toolsName: TypeScript.Identifier): Reach[] {
  const { ts, source, checker } = block;
  const symbol = checker.getSymbolAtLocation(toolsName);
  if (symbol === undefined) return [];
  const reaches: Reach[] = [];
  const type = checker.getTypeOfSymbolAtLocation(symbol, toolsName);
  for (const property of checker.getPropertiesOfType(type)) {
    const name = ts.symbolName(property);
    // A class's `#private` member, and what a class or function value has of its own, are no tools.
    if (name.startsWith('#') || property.escapedName.toString().startsWith('__#')) continue;
    const ownDeclaration = property.declarations?.find((d) => d.getSourceFile() === source);
    if (property.declarations !== undefined && property.declarations.length > 0 && ownDeclaration === undefined)
      continue;
    const named =
      ownDeclaration === undefined ? undefined : (ts.getNameOfDeclaration(ownDeclaration) ?? ownDeclaration);
    const bare = isIdentifierName(ts, name);
    reaches.push({
      spelled: bare ? name : JSON.stringify(name),
      how: bare ? 'method' : 'subscript',
      reaches: name,
      ...where(block, named ?? toolsName),
    });
  }
  return reaches;
}

/**
 * A block that binds no value offers its top-level functions, called by name (overloads are one way in); one that
 * binds another object is told so, rather than read as functions.
 */
function functionReaches(block: ReadBlock, functions: readonly TypeScript.Identifier[]): Reach[] {
  const seen = new Set<string>();
  const reaches: Reach[] = [];
  for (const name of functions) {
    if (seen.has(name.text)) continue;
    seen.add(name.text);
    reaches.push({ spelled: name.text, how: 'method', reaches: name.text, ...where(block, name) });
  }
  return reaches;
}

/** The top-level declarations the compiler finds duplicated, grouped by name. */
function collisionsOf(
  program: TypeScript.Program,
  source: TypeScript.SourceFile,
  declared: ReadonlyArray<Declared & { start: number }>,
): Collision[] {
  const duplicated = new Set<string>();
  for (const diagnostic of program.getSemanticDiagnostics(source)) {
    if (!DUPLICATE_CODES.has(diagnostic.code)) continue;
    const named = declared.find((d) => d.start === diagnostic.start);
    if (named !== undefined) duplicated.add(named.name);
  }
  return [...duplicated].map((key) => ({
    key,
    declarations: declared.filter((d) => d.name === key).map(({ start: _, ...d }) => d),
  }));
}

/** Whether `name` can follow `tools.`: an IdentifierName (reserved words too, as in `tools.class`). */
function isIdentifierName(ts: typeof TypeScript, name: string): boolean {
  const points = [...name].map((char) => char.codePointAt(0)!);
  return (
    points.length > 0 &&
    ts.isIdentifierStart(points[0]!, ts.ScriptTarget.ES2022) &&
    points.slice(1).every((point) => ts.isIdentifierPart(point, ts.ScriptTarget.ES2022))
  );
}

/**
 * The names of a TypeScript SDK block, taken from the session's verdict cache when an earlier run read the same block
 * off the same object with the same compiler: the compiler (about half a second of CPU to load) is then not loaded.
 */
export async function readTypeScriptNames(
  sdk: string,
  session: Pick<Session, 'cache' | 'slot'>,
  object: string,
): Promise<SdkNames> {
  const { cache } = session;
  const read = () => typescriptSdkNames(session.slot(TYPESCRIPT_COMPILER), sdk, object);
  if (cache === undefined) return read();
  const parts = [`typescript ${typescriptVersion()}`, 'checker', `object ${object}`, sha256(sdk)];
  const kept = await cache.get('sdk-names', parts, isSdkNames);
  if (kept !== undefined) return { ...kept, normalize: (name) => name };
  const names = read();
  await cache.put('sdk-names', parts, {
    declared: names.declared,
    reaches: names.reaches,
    collisions: names.collisions,
    bindings: names.bindings,
  });
  return names;
}
