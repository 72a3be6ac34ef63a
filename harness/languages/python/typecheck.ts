import { importsNothing } from '../../interpreters/import-script.js';
import type { ProgramDiagnostic, ScriptedProgram } from '../typecheck.js';
import { checkWithPyright, type PyrightHost } from './cached-pyright.js';

const STUB_MODULE = 'tools_sdk';
const INDENT = '    ';
/** Lines the wrapper puts before the program's first line. */
const HEADER = [`from ${STUB_MODULE} import ToolCallError, tools`, 'async def program():'];

/**
 * The program as the body of an async function that sees only what the runtime binds: `tools` and
 * `ToolCallError` are imported from the stubs, so a program naming a TypedDict fails as it would at run time.
 */
function wrap(code: string): string {
  const body = code.split('\n').map((line) => (line.trim() === '' ? line : INDENT + line));
  // A body of nothing but blank lines and comments is no statement: Python needs one.
  return [...HEADER, ...body, `${INDENT}pass`, ''].join('\n');
}

/**
 * What stubs that import nothing are read with: the names of `typing`, as the stub checks run such a block (see
 * `importsNothing`). A line before the stubs' first, so their lines are counted back by one.
 */
const TYPING_NAMES_LINE = 'from typing import *\n';

/**
 * A subscript call `tools["name"](…)` is untyped by design: the stubs list such tools only as comments,
 * so pyright's complaint that `Tools` has no `__getitem__` says nothing about the program.
 */
const untypedSubscript = (message: string, rule: string | undefined) =>
  rule === 'reportIndexIssue' && message.includes('"__getitem__" method not defined on type "Tools"');

/**
 * Type-checks each program against the Python stubs with pyright for `pythonVersion` (the floor); positions
 * are the program's own. The stubs are checked as the module they are (`.py`, not `.pyi`, whose annotations
 * may use any version's syntax): syntax or standard library the version lacks is an error at their own line.
 */
export async function typecheckPython(
  host: PyrightHost,
  stubs: string,
  programs: readonly ScriptedProgram[],
  pythonVersion: string,
): Promise<ProgramDiagnostic[]> {
  const stubFile = `${STUB_MODULE}.py`;
  const before = importsNothing(stubs) ? TYPING_NAMES_LINE : '';
  const shift = before === '' ? 0 : 1;
  const files = new Map<string, string>([[stubFile, before + stubs]]);
  const names = programs.map((_, i) => `program_${i + 1}.py`);
  programs.forEach((program, i) => files.set(names[i]!, wrap(program.code)));
  const results = await checkWithPyright(host, pythonVersion, { files, open: [stubFile, ...names] });
  // Stub methods describe and do not implement: a body of a docstring alone returns nothing, by design.
  const inStubs = (results.get(stubFile) ?? [])
    .filter((d) => d.severity === 'error' && d.rule !== 'reportReturnType' && d.line >= shift)
    .map(
      (d): ProgramDiagnostic => ({
        severity: 'error',
        line: d.line - shift + 1,
        column: d.character + 1,
        message: d.message,
      }),
    );
  return inStubs.concat(
    programs.flatMap((program, i) =>
      (results.get(names[i]!) ?? [])
        .filter((d) => d.severity === 'error')
        .map((d): ProgramDiagnostic => {
          const inProgram = d.line >= HEADER.length;
          return {
            program,
            severity: untypedSubscript(d.message, d.rule) ? 'note' : 'error',
            ...(inProgram
              ? { line: d.line - HEADER.length + 1, column: Math.max(0, d.character - INDENT.length) + 1 }
              : {}),
            message: inProgram ? d.message : `${d.message} (in the import of tools and ToolCallError from the stubs)`,
          };
        }),
    ),
  );
}
