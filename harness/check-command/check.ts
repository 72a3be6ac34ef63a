import { DEFAULT_PYTHON_FLOOR, isPythonVersion, type PythonVersion } from '../../codemode/index.js';
import type { Language } from '../../runtimes/seam/types.js';
import { type Finding, runChecks, type SkippedCheck } from '../checks/index.js';
import { LANGUAGE_PACKS, LANGUAGES } from '../languages/index.js';
import { openProject, type Project } from '../project/root.js';
import { CheckInputError } from '../readers/input-error.js';
import { viewsOrRefuse } from '../readers/material.js';
import type { ModelView } from '../readers/model-view.js';
import { readRequest } from '../readers/request-views.js';
import { codeToolFile, sdkFileView } from '../readers/sdk-file.js';
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
  /**
   * The functions that run programs, by name (`codemode`, or several: `['search', 'execute']`): default `run_code` and
   * every function that takes a `code` string.
   */
  codeTool?: string | readonly string[];
  /** The project whose concord.config.yml and `.concord/cache/` serve the check: default found from the cwd. */
  root?: string;
  /** false: compute every verdict afresh, neither reading nor writing `.concord/cache/` (also `CONCORD_NO_CACHE=1`). */
  cache?: boolean;
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
  /** The checks that need what only a gate has (a scenario, its runs, a booted app), and why: run by `concord gate`. */
  skipped: SkippedCheck[];
}

/** The SDK of `checkSdk`: a `tools:sdk` section (or the bare code of its block), and the function that runs programs. */
export interface SdkInput {
  section: string;
  /** The language programs are written in: by default the one the section's block names. */
  language?: Language;
  /**
   * The function that runs programs (`{ name, description, parameters }`, or OpenAI's `{ type: "function", function }`),
   * or the list of tools it is offered in.
   */
  runCode?: unknown;
}

/** A finding as the gate and `concord check` print it. */
export const findingLine = (f: Finding): string => `${f.severity} ${f.check}: ${f.message}`;

/** The names `codeTool` gives, as a list. */
const codeToolsOf = (options: CheckOptions): readonly string[] | undefined =>
  typeof options.codeTool === 'string' ? [options.codeTool] : options.codeTool;

/**
 * Runs every check concord runs on what a model is shown (language agreement, names, stubs from the floor up,
 * the floor's Unicode tables, the TypeScript type check) on the SDKs a chat request body carries: the body as JSON
 * text or as the object a test built. Bad input, and a request that shows no SDK, throw a UserError naming the place.
 */
export async function checkRequest(request: string | object, options: CheckOptions = {}): Promise<CheckResult> {
  const text = typeof request === 'string' ? request : JSON.stringify(request);
  const source = 'the request';
  const reading = readRequest(text, source, { codeTools: codeToolsOf(options) });
  return checkViews(viewsOrRefuse(reading, source, SHOW_AN_SDK), options);
}

/** `checkRequest` for an SDK section (or file) and the function that runs programs, without a request around them. */
export async function checkSdk(input: SdkInput, options: CheckOptions = {}): Promise<CheckResult> {
  const source = 'the SDK';
  if (input.language !== undefined && !(LANGUAGES as readonly unknown[]).includes(input.language))
    throw new CheckInputError(
      source,
      `the language ${JSON.stringify(input.language)} is none concord reads`,
      `say one of ${LANGUAGES.join(', ')}, or leave it out to take the one the SDK block names`,
    );
  const codeTools = codeToolsOf(options);
  const wire =
    input.runCode === undefined ? undefined : codeToolFile(JSON.stringify(input.runCode), 'the code tool', codeTools);
  const reading = sdkFileView(input.section, source, { language: input.language, wire, codeTools, isSdk: true });
  return checkViews(viewsOrRefuse(reading, source, SHOW_AN_SDK), options);
}

const SHOW_AN_SDK =
  'give what the model is shown: a system prompt or code tool description holding the SDK in a block that names its language (```python or ```ts), or the SDK file itself';

/** The findings of each view, in order, on one session and one floor: the checks the gate runs, on what it was shown. */
export async function checkViews(
  views: readonly ModelView[],
  options: CheckOptions,
  each?: (view: ModelView, result: CheckResult) => void,
): Promise<CheckResult> {
  const project = await openProject(options.root === undefined ? {} : { root: options.root });
  const floor = floorOf(options.floor, project);
  const session = options.session ?? newSession(project, options.cache !== false);
  const findings: Finding[] = [];
  const skipped = new Map<string, SkippedCheck>();
  try {
    for (const given of views) {
      const view: ModelView = {
        ...given,
        ...(options.tools === undefined ? {} : { registered: { names: options.tools, complete: true } }),
        ...(options.toolsObject === undefined
          ? {}
          : { toolsObject: toolsObjectOf(options.toolsObject, given.language) }),
      };
      const outcome = await runChecks({ view, floor, session });
      findings.push(...outcome.findings);
      for (const skip of outcome.skipped) skipped.set(skip.check, skip);
      each?.(view, resultOf(outcome.findings, outcome.skipped));
    }
  } finally {
    if (options.session === undefined) await session.dispose();
  }
  return resultOf(findings, [...skipped.values()]);
}

const resultOf = (findings: Finding[], skipped: SkippedCheck[]): CheckResult => ({
  ok: !findings.some((f) => f.severity === 'error'),
  findings,
  lines: findings.map(findingLine),
  skipped,
});

/** A session for checks of `project`: its verdict cache (unless `cache` is false) and the Pyodide releases it names. */
export function newSession(project: Project, cache = true): Session {
  const pyodides = project.config.pyodide?.versions;
  return new Session({
    ...(cache ? { cacheRoot: project.root } : {}),
    ...(pyodides === undefined ? {} : { pyodides }),
  });
}

/** `--tools-object` when a program in `language` can call tools on it, else a CheckInputError saying why. */
function toolsObjectOf(name: string, language: Language): string {
  const pack = LANGUAGE_PACKS[language];
  if (!pack.isBindableName(name))
    throw new CheckInputError(
      '--tools-object',
      `${JSON.stringify(name)} is no name a ${pack.name} program can bind the tools under`,
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

export type { ModelView };
