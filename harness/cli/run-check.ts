import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Language } from '../../runtimes/seam/types.js';
import { checkViews } from '../check-command/check.js';
import { readCheckInputs } from '../check-command/inputs.js';
import { parseJsonText } from '../guarded/json-input.js';
import { readNamedInput } from '../guarded/read-regular.js';
import { CheckInputError } from '../readers/input-error.js';
import type { ModelView } from '../readers/model-view.js';
import { toolsDocument } from '../readers/tools-document.js';
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
  /** false with --no-cache. */
  cache?: boolean;
}

/** What `concord check` does once its options are parsed (the command is declared in `commands/check.ts`). */
export async function runCheck(flags: CheckFlags, out: (line: string) => void): Promise<void> {
  const subjects = await readSubjects(flags, out);
  const tools = flags.tools === undefined ? undefined : await readToolNames(flags.tools);
  let failing = 0;
  const result = await checkViews(
    subjects,
    {
      ...(flags.floor === undefined ? {} : { floor: flags.floor }),
      ...(flags.root === undefined ? {} : { root: flags.root }),
      ...(flags.cache === false ? { cache: false } : {}),
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

/**
 * What `concord check` was given, read; nothing that shows an SDK is bad input, saying what was found instead. Each
 * file that shows none, or is no material concord reads, is counted in a line of its own kind.
 */
async function readSubjects(flags: CheckFlags, out: (line: string) => void): Promise<ModelView[]> {
  const requests = flags.request ?? [];
  const sdks = flags.sdk ?? [];
  if (requests.length === 0 && sdks.length === 0)
    throw new UserError(
      'name what to check: --request FILE… (chat request bodies) or --sdk FILE… (SDK files or prompts), or a folder of either',
      { hint: 'concord check --help shows both' },
    );
  if (flags.runCode !== undefined && sdks.length === 0)
    throw new UserError('--run-code goes with --sdk', {
      hint: 'a request body carries its code tool in its tools',
    });
  const read = await readCheckInputs({
    requests,
    sdks,
    language: flags.language,
    runCode: flags.runCode,
    codeTools: codeToolNames(flags.codeTool),
    shown,
  });
  const said = [
    ...(read.noSdk.length === 0 ? [] : [`no SDK in ${counted(read.noSdk)}: not Code Mode prompts`]),
    ...(read.notRead.length === 0 ? [] : [`not read: ${kindsOf(read.notRead)}`]),
  ];
  if (read.views.length === 0) {
    const only = read.noSdk.length === 1 && read.notRead.length === 0 ? read.noSdk[0] : undefined;
    throw new UserError(
      only !== undefined
        ? `${only.file} shows no SDK: ${only.why}`
        : `nothing given shows an SDK${said.length === 0 ? '' : `; ${said.join('; ')}`}`,
      {
        hint: 'give what a Code Mode model is shown: a request body, system prompt or code tool description holding the SDK in a block that names its language (```python or ```ts), or the SDK file itself',
      },
    );
  }
  for (const line of said) out(line);
  if (said.length > 0) out('');
  return read.views;
}

/** `--code-tool a,b`: the names, each trimmed; none empty. */
function codeToolNames(flag: string | undefined): string[] | undefined {
  if (flag === undefined) return undefined;
  const names = flag.split(',').map((name) => name.trim());
  if (names.some((name) => name === ''))
    throw new CheckInputError(
      '--code-tool',
      `${JSON.stringify(flag)} holds an empty name`,
      'give names: --code-tool search,execute',
    );
  return names;
}

/** `3 file(s) (a.md, b.md, c.md)`, or the first three and how many more. */
function counted(files: ReadonlyArray<{ file: string }>): string {
  const names = files.slice(0, 3).map(({ file }) => file);
  const more = files.length > 3 ? ` and ${files.length - 3} more` : '';
  return `${files.length} file(s) (${names.join(', ')}${more})`;
}

/** The files not read, counted by what they are: `3 a .jsonl file, 1 JSON that is …`. */
function kindsOf(files: ReadonlyArray<{ file: string; what: string }>): string {
  const kinds = new Map<string, number>();
  for (const { what } of files) kinds.set(what, (kinds.get(what) ?? 0) + 1);
  return [...kinds].map(([what, count]) => `${count} × ${what}`).join(', ');
}

/** A file as findings name it: from the working directory when it lies below it, else as it was given. */
function shown(file: string): string {
  const below = relative(process.cwd(), resolve(file));
  return below === '' || below === '..' || below.startsWith(`..${sep}`) || isAbsolute(below) ? file : below;
}

/** `--tools FILE`: a JSON list of names, or the tools the backend registers (a list, `{ tools }`, `{ initial }`). */
async function readToolNames(file: string): Promise<string[]> {
  const parsed = parseJsonText(await readNamedInput(file, 'a tool list'));
  const hint =
    'give a JSON list of tool names, or the tool definitions the backend registers (a list, { "tools": [...] } or { "initial": [...] })';
  if ('problem' in parsed) throw new CheckInputError(shown(file), `the tool list ${parsed.problem}`, hint);
  const { value } = parsed;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  const listed = toolsDocument(value, shown(file));
  if (listed === undefined) throw new CheckInputError(shown(file), '$ is no list of tools or of names', hint);
  return listed.map(({ tool }) => tool.name);
}
