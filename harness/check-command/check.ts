import { DEFAULT_PYTHON_FLOOR, isPythonVersion, type PythonVersion } from '../../codemode/index.js';
import { PYTHON_HARD_KEYWORDS } from '../../runtimes/seam/python-keywords.js';
import type { Language } from '../../runtimes/seam/types.js';
import { checkSubject } from '../checks/static/check-subject.js';
import { CheckInputError, requestSubject, runCodeFile, sdkFileSubject } from '../checks/static/request.js';
import type { SdkSubject } from '../checks/static/subject.js';
import type { Finding } from '../checks/types.js';
import { openProject, type Project } from '../project/root.js';
import { Session } from '../session.js';

export interface CheckOptions {
  /** The oldest CPython a Python SDK must serve: default the project's `floor` (concord.config.yml), else 3.9. */
  floor?: string;
  /** Every tool the backend registers, by name: then a tool no way reaches, and a way to no tool, are findings. */
  tools?: readonly string[];
  /**
   * The name the backend's runtime binds the tools under in a program (`codemode` for `codemode.name(…)`): the SDK
   * must declare its tools there. Default `tools`.
   */
  toolsObject?: string;
  /** The name of the function that runs programs (`codemode`, `execute_code`): default `run_code`. */
  codeTool?: string;
  /** The project whose concord.config.yml and `.concord/cache/` serve the check: default found from the cwd. */
  root?: string;
  /**
   * A session of the caller's, kept over many checks (its interpreters start once, its verdict cache serves every
   * check); the caller disposes it. Default: one for the call, disposed with it.
   */
  session?: Session;
}

/** What the checks found; `ok` when none of it is an error (a note is said, and fails nothing). */
export interface CheckResult {
  ok: boolean;
  findings: Finding[];
  /** The findings as `concord check` and the gate print them: `error sdk-names: …`. */
  lines: string[];
}

/** The SDK of `checkSdk`: a `tools:sdk` section (or the bare code of its block) in one language, and its run_code. */
export interface SdkInput {
  section: string;
  language: Language;
  /** The run_code function: `{ name, description, parameters }`, or OpenAI's `{ type: "function", function }`. */
  runCode?: unknown;
}

/** A finding as the gate and `concord check` print it. */
export const findingLine = (f: Finding): string => `${f.severity} ${f.check}: ${f.message}`;

/**
 * Runs every check concord runs on what a model is shown (language agreement, names, stubs from the floor up,
 * the floor's Unicode tables, the TypeScript type check) on the SDK a chat request body carries: the body as JSON
 * text or as the object a test built. Bad input throws a UserError naming the JSON path.
 */
export async function checkRequest(request: string | object, options: CheckOptions = {}): Promise<CheckResult> {
  const text = typeof request === 'string' ? request : JSON.stringify(request);
  return checkSubjects([requestSubject(text, 'the request', options.codeTool)], options);
}

/** `checkRequest` for an SDK section (or file) and the run_code function, without a request around them. */
export async function checkSdk(input: SdkInput, options: CheckOptions = {}): Promise<CheckResult> {
  const source = 'the run_code function';
  const runCode =
    input.runCode === undefined ? undefined : runCodeFile(JSON.stringify(input.runCode), source, options.codeTool);
  return checkSubjects([sdkFileSubject(input.section, 'the SDK', input.language, runCode, source)], options);
}

/** The findings of each subject, in order, on one session and one floor. */
export async function checkSubjects(
  subjects: readonly SdkSubject[],
  options: CheckOptions,
  each?: (subject: SdkSubject, result: CheckResult) => void,
): Promise<CheckResult> {
  const project = await openProject(options.root === undefined ? {} : { root: options.root });
  const floor = floorOf(options.floor, project);
  const session = options.session ?? newSession(project);
  const findings: Finding[] = [];
  try {
    for (const subject of subjects) {
      const withTools: SdkSubject = {
        ...subject,
        ...(options.tools === undefined ? {} : { registered: { names: options.tools, complete: true } }),
        ...(options.toolsObject === undefined
          ? {}
          : { toolsObject: toolsObjectOf(options.toolsObject, subject.language) }),
      };
      const verdict = await checkSubject(withTools, { floor, session });
      findings.push(...verdict.findings);
      each?.(subject, resultOf(verdict.findings));
    }
  } finally {
    if (options.session === undefined) await session.dispose();
  }
  return resultOf(findings);
}

const resultOf = (findings: Finding[]): CheckResult => ({
  ok: !findings.some((f) => f.severity === 'error'),
  findings,
  lines: findings.map(findingLine),
});

/** A session for checks of `project`: its verdict cache and the Pyodide releases its config names. */
export function newSession(project: Project): Session {
  const pyodides = project.config.pyodide?.versions;
  return new Session({ cacheRoot: project.root, ...(pyodides === undefined ? {} : { pyodides }) });
}

/** An identifier (ECMAScript's IdentifierName): what a TypeScript program can bind the tools under. */
const TYPESCRIPT_NAME = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200c\u200d]*$/u;
/** An identifier as CPython reads it (after NFKC), which is what a Python program can bind the tools under. */
const PYTHON_NAME = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

/** `--tools-object` when a program in `language` can call tools on it, else a CheckInputError saying why. */
function toolsObjectOf(name: string, language: Language): string {
  const python = name.normalize('NFKC');
  const valid =
    language === 'python'
      ? PYTHON_NAME.test(python) && !PYTHON_HARD_KEYWORDS.includes(python)
      : TYPESCRIPT_NAME.test(name);
  if (!valid)
    throw new CheckInputError(
      '--tools-object',
      `${JSON.stringify(name)} is no name a ${language === 'python' ? 'Python' : 'TypeScript'} program can bind the tools under`,
      'give the identifier your runtime binds the tools under, such as codemode',
    );
  return name;
}

function floorOf(flag: string | undefined, project: Project): PythonVersion {
  if (flag === undefined) return (project.config.floor as PythonVersion | undefined) ?? DEFAULT_PYTHON_FLOOR;
  if (!isPythonVersion(flag))
    throw new CheckInputError(
      '--floor',
      `${JSON.stringify(flag)} is no CPython version concord supports`,
      'give a version such as 3.9',
    );
  return flag;
}

export type { SdkSubject };
