import type { Language } from '../../../runtimes/seam/types.js';
import type { RunCodeFunction } from '../language/check.js';
import type { Registered } from '../sdk-names/index.js';

/**
 * What a model is shown of a Code Mode backend, apart from any app: the `tools:sdk` section (prose around one fenced
 * block) and the `run_code` tool, in the language of the runtime that runs the programs. A request body a team's own
 * tests keep, or an SDK file and the run_code function beside it.
 */
export interface SdkSubject {
  /** What the subject is called where a finding names it: the file, and the JSON path of the section in it. */
  source: string;
  language: Language;
  /** The section's text: optional prose and exactly one fenced block whose info string names the language. */
  section: string;
  runCode?: RunCodeFunction | undefined;
  /** What the run_code function is called where a finding names it: its file, or its JSON path in the request. */
  runCodeSource?: string | undefined;
  /** The tools the backend registers, when known (its native tools, or the names the team gave). */
  registered?: Registered | undefined;
  /** The name the backend's runtime binds the tools under in a program, when it is not `tools`. */
  toolsObject?: string | undefined;
  /** What reading the subject could not check, said as notes (a request with no function that runs programs). */
  unchecked?: string[] | undefined;
}
