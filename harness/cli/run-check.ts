import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Language } from '../../runtimes/seam/types.js';
import { checkViews } from '../check-command/check.js';
import { parseJsonText } from '../guarded/json-input.js';
import { readNamedInput } from '../guarded/read-regular.js';
import type { ModelView } from '../readers/model-view.js';
import { CheckInputError, requestView, runCodeFile, sdkFileLanguage, sdkFileView } from '../readers/request.js';
import { isSnapshotFile } from '../readers/snapshot-file.js';
import { snapshotSectionViews, snapshotViews } from '../readers/snapshot-views.js';
import { UserError } from '../user-error.js';
import { exitWith } from './exit.js';

/** The options of `concord check`. */
export interface CheckFlags {
  request?: string[];
  sdk?: string[];
  language?: Language;
  runCode?: string;
  floor?: string;
  tools?: string;
  toolsObject?: string;
  codeTool?: string;
  root?: string;
}

/** What `concord check` does once its options are parsed (the command is declared in `commands/check.ts`). */
export async function runCheck(flags: CheckFlags, out: (line: string) => void): Promise<void> {
  const subjects = await readSubjects(flags);
  const tools = flags.tools === undefined ? undefined : await readToolNames(flags.tools);
  let failing = 0;
  const result = await checkViews(
    subjects,
    {
      ...(flags.floor === undefined ? {} : { floor: flags.floor }),
      ...(flags.root === undefined ? {} : { root: flags.root }),
      ...(tools === undefined ? {} : { tools }),
      ...(flags.toolsObject === undefined ? {} : { toolsObject: flags.toolsObject }),
    },
    (subject, checked) => {
      if (!checked.ok) failing++;
      const errors = checked.findings.filter((f) => f.severity === 'error').length;
      const notes = checked.findings.length - errors;
      const said = [errors === 0 ? 'no finding' : `${errors} finding(s)`, ...(notes === 0 ? [] : [`${notes} note(s)`])];
      out(`${checked.ok ? '✓' : '✗'} ${subject.source} (${subject.language}): ${said.join(', ')}`);
      for (const line of checked.lines) out(`  ${line}`);
    },
  );
  out('');
  if (result.skipped.length > 0)
    out(
      `not run on files: ${result.skipped.map((skip) => `${skip.check} (${skip.why})`).join(', ')}; concord gate runs them`,
    );
  out(
    result.ok
      ? `concord check: ${subjects.length} SDK(s), no finding`
      : `concord check: ${subjects.length} SDK(s), ${failing} with findings: FAILED`,
  );
  exitWith(result.ok ? 0 : 1);
}

async function readSubjects(flags: CheckFlags): Promise<ModelView[]> {
  const requests = flags.request ?? [];
  const sdks = flags.sdk ?? [];
  if (requests.length === 0 && sdks.length === 0)
    throw new UserError(
      'name what to check: --request FILE… (chat request bodies) or --sdk FILE… (SDK files or sections)',
      { hint: 'concord check --help shows both' },
    );
  if (flags.runCode !== undefined && sdks.length === 0)
    throw new UserError('--run-code goes with --sdk', {
      hint: 'a request body carries its run_code function in its tools',
    });
  const subjects = await subjectsOf(requests, REQUESTS, (text, file, listed) =>
    isSnapshotFile(file, text)
      ? snapshotViews(text, shown(file), flags.codeTool, listed)
      : [requestView(text, shown(file), flags.codeTool)],
  );
  if (sdks.length === 0) return subjects;
  const runCodeSource = flags.runCode === undefined ? undefined : shown(flags.runCode);
  const runCode =
    flags.runCode === undefined
      ? undefined
      : runCodeFile(await readNamedInput(flags.runCode, 'a run_code function'), shown(flags.runCode), flags.codeTool);
  const sdkSubjects = await subjectsOf(sdks, SDKS, (sdk, file, listed) => {
    if (isSnapshotFile(file, sdk))
      return snapshotSectionViews(sdk, shown(file), flags.language, runCode, runCodeSource, listed);
    const language = flags.language ?? sdkFileLanguage(file, sdk);
    if (language === undefined)
      throw new CheckInputError(
        shown(file),
        'neither its name nor its fences say which language the SDK is in',
        'say it: --language python or --language typescript (or name the file .py or .ts)',
      );
    return [sdkFileView(sdk, shown(file), language, runCode, runCodeSource)];
  });
  return [...subjects, ...sdkSubjects];
}

/** What `concord check` takes as files, or folders of them: what a file is, which names a folder's files have. */
interface InputKind {
  what: string;
  files: RegExp;
  /** What a folder that yields nothing is told. */
  none: { problem: string; hint: string };
}

const REQUESTS: InputKind = {
  what: 'a chat request body',
  files: /\.(?:json|snap)$/,
  none: {
    problem: 'holds no chat request body: no .json file, and no snapshot of one in a .snap file',
    hint: 'put the request bodies your tests keep there as *.json, or name the folder of the .snap files your suite writes with expect(body).toMatchSnapshot()',
  },
};

const SDKS: InputKind = {
  what: 'an SDK file',
  files: /\.(?:md|markdown|txt|pyi?|[cm]?ts|snap)$/,
  none: {
    problem: 'holds no SDK: no .md, .txt, .py, .pyi or .ts file, and no snapshot of a system prompt in a .snap file',
    hint: 'put the SDK sections or files your tests keep there, or name the folder of the .snap files your suite writes with expect(systemPrompt).toMatchSnapshot()',
  },
};

/**
 * The subjects `read` finds in each path: a file, or each file of a folder that `kind` names (sorted). `listed` says
 * the file was found in a folder, where it may hold none; a folder whose files all hold none is bad input.
 */
async function subjectsOf(
  paths: readonly string[],
  kind: InputKind,
  read: (text: string, file: string, listed: boolean) => ModelView[],
): Promise<ModelView[]> {
  const subjects: ModelView[] = [];
  for (const path of paths) {
    const listed = statSync(path).isDirectory();
    const files = listed
      ? readdirSync(path)
          .filter((name) => kind.files.test(name))
          .sort()
          .map((name) => join(path, name))
      : [path];
    const before = subjects.length;
    for (const file of files) subjects.push(...read(await readNamedInput(file, kind.what), file, listed));
    if (listed && subjects.length === before) throw new CheckInputError(path, kind.none.problem, kind.none.hint);
  }
  return subjects;
}

/** A file as findings name it: from the working directory when it lies below it, else as it was given. */
function shown(file: string): string {
  const below = relative(process.cwd(), resolve(file));
  return below === '' || below === '..' || below.startsWith(`..${sep}`) || isAbsolute(below) ? file : below;
}

/** `--tools FILE`: a JSON list of names, or of tool definitions with a `name`. */
async function readToolNames(file: string): Promise<string[]> {
  const parsed = parseJsonText(await readNamedInput(file, 'a tool list'));
  const hint = 'give a JSON list of tool names, or the tool definitions the backend registers';
  if ('problem' in parsed) throw new CheckInputError(shown(file), `the tool list ${parsed.problem}`, hint);
  if (!Array.isArray(parsed.value)) throw new CheckInputError(shown(file), '$ is not a list', hint);
  return parsed.value.map((item, i) => {
    const name = typeof item === 'string' ? item : (item as { name?: unknown } | null)?.name;
    if (typeof name !== 'string')
      throw new CheckInputError(shown(file), `$[${i}] is neither a name nor a tool with a name`, hint);
    return name;
  });
}
