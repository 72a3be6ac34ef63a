import ts from 'typescript';

/*
 * Compiles an SDK declaration file with a program beside it, both in memory, under the strict options a
 * user's project would use. Test support for every test that type-checks rendered TypeScript.
 */

const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts'],
  types: [],
  // Checks the SDK declaration file itself; only the compiler's own lib files are trusted unchecked.
  skipLibCheck: false,
  skipDefaultLibCheck: true,
};

const baseHost = ts.createCompilerHost(OPTIONS);
const libFiles = new Map<string, ts.SourceFile | undefined>();

/** Diagnostics of the SDK as `sdk.d.ts` plus a program `main.ts`, both in memory. */
export function diagnose(sdk: string, program: string): string[] {
  const files = new Map([
    ['/virtual/sdk.d.ts', sdk],
    ['/virtual/main.ts', program],
  ]);
  const host: ts.CompilerHost = {
    ...baseHost,
    fileExists: (name) => files.has(name) || baseHost.fileExists(name),
    readFile: (name) => files.get(name) ?? baseHost.readFile(name),
    getSourceFile: (name, version) => {
      const text = files.get(name);
      if (text !== undefined) return ts.createSourceFile(name, text, version);
      if (!libFiles.has(name)) libFiles.set(name, baseHost.getSourceFile(name, version));
      return libFiles.get(name);
    },
    writeFile: () => undefined,
  };
  const compiled = ts.createProgram([...files.keys()], OPTIONS, host);
  return ts
    .getPreEmitDiagnostics(compiled)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    );
}
