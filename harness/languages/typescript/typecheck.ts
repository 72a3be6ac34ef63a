import type { ProgramDiagnostic, ScriptedProgram } from '../typecheck.js';
import type { TypeScriptCompiler } from './compiler.js';

/** The snapshot file that holds the TypeScript `tools:sdk` block. */
export const TYPESCRIPT_SDK_FILE = 'tools-sdk.ts';

const DIR = '/concord-typecheck';
const SDK_PATH = `${DIR}/${TYPESCRIPT_SDK_FILE}`;
const GLOBALS_FILE = `${DIR}/runtime-globals.d.ts`;

/**
 * What the TypeScript runtime (a Node worker thread) offers a program beyond the language itself and the
 * SDK: its `console` (each method logs a line) and the timer functions. `process` and `fetch` are removed
 * there, so they are not declared here either.
 */
const RUNTIME_GLOBALS = `
declare const console: { log(...data: unknown[]): void; info(...data: unknown[]): void; warn(...data: unknown[]): void; error(...data: unknown[]): void; debug(...data: unknown[]): void; trace(...data: unknown[]): void };
declare function setTimeout(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): unknown;
declare function clearTimeout(handle: unknown): void;
declare function setInterval(callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]): unknown;
declare function clearInterval(handle: unknown): void;
declare function queueMicrotask(callback: () => void): void;
declare function structuredClone<T>(value: T): T;
`;

/**
 * Each program becomes a module whose only statement is an async function holding the program, opened on
 * the same line as the module marker so the program's lines keep their numbers. The SDK is a script:
 * its declarations are global, as the run_code description promises.
 */
const WRAPPER_OPEN = 'export {}; async function program() {\n';

/** Type-checks each program against the TypeScript SDK with `compiler`; positions are the program's own. */
export function typecheckTypeScript(
  compiler: TypeScriptCompiler,
  sdk: string,
  programs: readonly ScriptedProgram[],
): ProgramDiagnostic[] {
  const { ts } = compiler;
  const names = programs.map((_, i) => `${DIR}/program-${i + 1}.ts`);
  const files = new Map<string, string>([
    [SDK_PATH, sdk],
    [GLOBALS_FILE, RUNTIME_GLOBALS],
  ]);
  programs.forEach((program, i) => files.set(names[i]!, `${WRAPPER_OPEN}${program.code}\n}\n`));
  const program = compiler.program(files);
  const diagnostics: ProgramDiagnostic[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const index = diagnostic.file ? names.indexOf(diagnostic.file.fileName) : -1;
    const scripted = programs[index];
    if (scripted === undefined) {
      // A problem outside the programs: the SDK itself does not compile.
      const at =
        diagnostic.file && diagnostic.start !== undefined
          ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
          : undefined;
      const where = at
        ? ` (${diagnostic.file!.fileName.slice(DIR.length + 1)} line ${at.line + 1}, column ${at.character + 1})`
        : '';
      diagnostics.push({ severity: 'error', message: `${message}${where}` });
      continue;
    }
    const position =
      diagnostic.start === undefined ? undefined : diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    diagnostics.push({
      program: scripted,
      severity: diagnostic.category === ts.DiagnosticCategory.Error ? 'error' : 'note',
      // Line 0 of the module is the wrapper's opening line, so the program's 1-based line is the 0-based line.
      ...(position && position.line > 0 ? { line: position.line, column: position.character + 1 } : {}),
      message,
    });
  }
  return diagnostics;
}
