/** A program the scenario script gives one `run_code` call, in one language. */
export interface ScriptedProgram {
  /** 1-based number of the `run_code` call in the script. */
  call: number;
  /** Line of the assistant step in the scenario file. */
  line: number;
  code: string;
}

/**
 * What a checker said about a program, at a position in the program's own numbering (1-based); without a
 * program, about the SDK itself.
 */
export interface ProgramDiagnostic {
  program?: ScriptedProgram;
  severity: 'error' | 'note';
  line?: number;
  column?: number;
  message: string;
}
