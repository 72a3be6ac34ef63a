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
  snapshotSectionSubjects,
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
  sdk?: string[];
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
  const subjects: SdkSubject[] = [];
  for (const path of requests) {
    const found: SdkSubject[] = [];
    const listed = statSync(path).isDirectory();
    for (const file of listed ? folderFiles(path, REQUEST_FILE) : [path]) {
      const text = await readNamedInput(file, 'a chat request body');
      if (isSnapshotFile(file, text)) found.push(...snapshotSubjects(text, shown(file), flags.codeTool, listed));
      else found.push(requestSubject(text, shown(file), flags.codeTool));
    }
    if (listed && found.length === 0)
      throw new CheckInputError(
        path,
        'holds no chat request body: no .json file, and no snapshot of one in a .snap file',
        'put the request bodies your tests keep there as *.json, or name the folder of the .snap files your suite writes with expect(body).toMatchSnapshot()',
      );
    subjects.push(...found);
  }
  if (sdks.length > 0) subjects.push(...(await sdkSubjects(sdks, flags)));
  return subjects;
}

/** The names of request bodies, and of the snapshot files that hold them, in a folder given to `--request`. */
const REQUEST_FILE = /\.(?:json|snap)$/;
/** The names of SDK sections, SDK code and snapshot files of sections in a folder given to `--sdk`. */
const SDK_FILE = /\.(?:md|markdown|txt|pyi?|[cm]?ts|snap)$/;

/** `--sdk`: each file, and each SDK file of each folder, in its language, beside the one `--run-code`. */
async function sdkSubjects(paths: readonly string[], flags: CheckFlags): Promise<SdkSubject[]> {
  const runCode =
    flags.runCode === undefined
      ? undefined
      : runCodeFile(await readNamedInput(flags.runCode, 'a run_code function'), shown(flags.runCode), flags.codeTool);
  const subjects: SdkSubject[] = [];
  for (const path of paths) {
    const listed = statSync(path).isDirectory();
    const before = subjects.length;
    for (const file of listed ? folderFiles(path, SDK_FILE) : [path]) {
      const sdk = await readNamedInput(file, 'an SDK file');
      if (isSnapshotFile(file, sdk)) {
        const source = flags.runCode === undefined ? undefined : shown(flags.runCode);
        subjects.push(...snapshotSectionSubjects(sdk, shown(file), flags.language, runCode, source, listed));
        continue;
      }
      const language = flags.language ?? sdkFileLanguage(file, sdk);
      if (language === undefined)
        throw new CheckInputError(
          shown(file),
          'neither its name nor its fences say which language the SDK is in',
          'say it: --language python or --language typescript (or name the file .py or .ts)',
        );
      subjects.push(
        sdkFileSubject(
          sdk,
          shown(file),
          language,
          runCode,
          flags.runCode === undefined ? undefined : shown(flags.runCode),
        ),
      );
    }
    if (listed && subjects.length === before)
      throw new CheckInputError(
        path,
        'holds no SDK: no .md, .txt, .py, .pyi or .ts file, and no snapshot of a system prompt in a .snap file',
        'put the SDK sections or files your tests keep there, or name the folder of the .snap files your suite writes with expect(systemPrompt).toMatchSnapshot()',
      );
  }
  return subjects;
}

/** The files of a folder whose names `wanted` matches, sorted. */
function folderFiles(path: string, wanted: RegExp): string[] {
  return readdirSync(path)
    .filter((name) => wanted.test(name))
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
