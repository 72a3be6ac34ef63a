import type TypeScript from 'typescript';
import { typescript } from '../../../runtimes/seam/typescript.js';
import type { SessionSlot } from '../../session.js';

/** The options every in-memory program of an SDK is checked with: strict, ES2023, no module resolution. */
function compilerOptions(ts: typeof TypeScript): TypeScript.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    lib: ['lib.es2023.d.ts'],
    types: [],
    skipDefaultLibCheck: true,
  };
}

/**
 * The TypeScript compiler over files held in memory (an SDK block, the programs checked against it), with
 * the standard library's declarations parsed once: they are the same for every program, and parsing them is
 * most of the cost of a small one. One per command, kept in its session.
 */
export class TypeScriptCompiler {
  readonly ts = typescript();
  private readonly options = compilerOptions(this.ts);
  private readonly base = this.ts.createCompilerHost(this.options);
  private readonly libFiles = new Map<string, TypeScript.SourceFile | undefined>();

  /** A program of `files` (path → text), every path absolute and outside the real file system. */
  program(files: ReadonlyMap<string, string>): TypeScript.Program {
    const { ts, base, libFiles } = this;
    const host: TypeScript.CompilerHost = {
      ...base,
      fileExists: (name) => files.has(name) || base.fileExists(name),
      readFile: (name) => files.get(name) ?? base.readFile(name),
      getSourceFile(name, languageVersion) {
        const text = files.get(name);
        if (text !== undefined) return ts.createSourceFile(name, text, languageVersion, true);
        if (!libFiles.has(name)) libFiles.set(name, base.getSourceFile(name, languageVersion));
        return libFiles.get(name);
      },
    };
    return ts.createProgram([...files.keys()], this.options, host);
  }
}

/** The session's compiler, made on first use. */
export const TYPESCRIPT_COMPILER: SessionSlot<TypeScriptCompiler> = {
  name: 'the TypeScript compiler',
  create: () => new TypeScriptCompiler(),
};

/** What a finding says of a text the compiler ran out of stack on. */
export const NESTS_TOO_DEEPLY = 'nests too deeply for the TypeScript compiler to read (it ran out of stack)';
