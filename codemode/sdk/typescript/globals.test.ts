import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TYPESCRIPT_GLOBAL_TYPES } from './globals.js';
import { renderTypeScriptSdk } from './index.js';

/** The global type and namespace names the compiler sees in a declaration file checked against `lib.es2023.d.ts`. */
function compilerGlobals(): string[] {
  const options: ts.CompilerOptions = { lib: ['lib.es2023.d.ts'], noEmit: true, types: [] };
  const host = ts.createCompilerHost(options);
  const file = '/probe.d.ts';
  const getSourceFile = host.getSourceFile;
  host.getSourceFile = (name, language) =>
    name === file ? ts.createSourceFile(name, 'declare const probe: number;', language) : getSourceFile(name, language);
  const fileExists = host.fileExists;
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram({ rootNames: [file], options, host });
  const statement = program.getSourceFile(file)!.statements[0]!;
  return program
    .getTypeChecker()
    .getSymbolsInScope(statement, ts.SymbolFlags.Type | ts.SymbolFlags.Namespace)
    .map((symbol) => symbol.name)
    .filter((name) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && name !== 'probe')
    .sort();
}

describe('the global types an SDK never declares', () => {
  it('are the ones the compiler knows', () => {
    expect([...TYPESCRIPT_GLOBAL_TYPES].sort()).toEqual(compilerGlobals());
  });

  it('keep a definition named like one (Error, Promise) from clashing with it', () => {
    const error = { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] };
    const sdk = renderTypeScriptSdk([
      {
        name: 'charge',
        description: '',
        parameters: { $ref: '#/$defs/Error', $defs: { Error: error } },
        output: { $ref: '#/$defs/Promise', $defs: { Promise: { enum: ['done', 'queued'] } } },
      },
    ]);
    expect(sdk).not.toMatch(/^type (Error|Promise) =/m);
    expect(sdk).toMatch(/^type Error_[0-9a-f]{6} = \{\n {2}reason: string;\n\};$/m);
    expect(sdk).toMatch(/^type Promise_[0-9a-f]{6} = "done" \| "queued";$/m);
  });
});
