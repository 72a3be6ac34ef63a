import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import {
  CheckInputError,
  checkSubjects,
  isSnapshotFile,
  requestSubject,
  runCodeFile,
  sdkFileLanguage,
  sdkFileSubject,
  snapshotSubjects,
} from '../check/check.js';
import type { SdkSubject } from '../checks/static/subject.js';
import { parseJsonText } from '../guarded/json-input.js';
import { readNamedInput } from '../guarded/read-regular.js';
import { UserError } from '../user-error.js';
import { exitWith } from './exit.js';

/** The options of `concord check`. */
export interface CheckFlags {
  request?: string[];
  sdk?: string;
  language?: 'python' | 'typescript';
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
  const result = await checkSubjects(
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
  out(
    result.ok
      ? `concord check: ${subjects.length} SDK(s), no finding`
      : `concord check: ${subjects.length} SDK(s), ${failing} with findings: FAILED`,
  );
  exitWith(result.ok ? 0 : 1);
}

async function readSubjects(flags: CheckFlags): Promise<SdkSubject[]> {
  const requests = flags.request ?? [];
  if (requests.length === 0 && flags.sdk === undefined)
    throw new UserError(
      'name what to check: --request FILE… (chat request bodies) or --sdk FILE (an SDK file or section)',
      {
        hint: 'concord check --help shows both',
      },
    );
  if (flags.runCode !== undefined && flags.sdk === undefined)
    throw new UserError('--run-code goes with --sdk', {
      hint: 'a request body carries its run_code function in its tools',
    });
  const subjects: SdkSubject[] = [];
  for (const path of requests) {
    const listed = statSync(path).isDirectory();
    const files = listed ? folderFiles(path) : [path];
    const found: SdkSubject[] = [];
    for (const file of files) {
      const text = await readNamedInput(file, 'a chat request body');
      if (isSnapshotFile(file, text)) found.push(...snapshotSubjects(text, shown(file), flags.codeTool, listed));
      else found.push(requestSubject(text, shown(file), flags.codeTool));
    }
    if (listed && found.length === 0)
      throw new CheckInputError(
        path,
        'holds no chat request body: no .json file, and no snapshot of one in a .snap file',
        FOLDER_HINT,
      );
    subjects.push(...found);
  }
  if (flags.sdk !== undefined) {
    const runCode =
      flags.runCode === undefined
        ? undefined
        : runCodeFile(await readNamedInput(flags.runCode, 'a run_code function'), shown(flags.runCode), flags.codeTool);
    const sdk = await readNamedInput(flags.sdk, 'an SDK file');
    const language = flags.language ?? sdkFileLanguage(flags.sdk, sdk);
    if (language === undefined)
      throw new CheckInputError(
        shown(flags.sdk),
        'neither its name nor its fences say which language the SDK is in',
        'say it: --language python or --language typescript (or name the file .py or .ts)',
      );
    subjects.push(
      sdkFileSubject(
        sdk,
        shown(flags.sdk),
        language,
        runCode,
        flags.runCode === undefined ? undefined : shown(flags.runCode),
      ),
    );
  }
  return subjects;
}

const FOLDER_HINT =
  'put the request bodies your tests keep there as *.json, or name the folder of the .snap files your suite writes with expect(body).toMatchSnapshot()';

/** The `*.json` and `*.snap` files of a folder, sorted. */
function folderFiles(path: string): string[] {
  return readdirSync(path)
    .filter((name) => name.endsWith('.json') || name.endsWith('.snap'))
    .sort()
    .map((name) => join(path, name));
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
