import { type Dirent, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Language } from '../../runtimes/seam/types.js';
import { parseJsonText } from '../guarded/json-input.js';
import { readNamedInput } from '../guarded/read-regular.js';
import { CheckInputError } from '../readers/input-error.js';
import { jsonReading, type Reading } from '../readers/material.js';
import type { ModelView } from '../readers/model-view.js';
import { REQUEST_HINT, type RequestDocument } from '../readers/request-body.js';
import { codeToolFile, sdkFileView } from '../readers/sdk-file.js';
import { isSnapshotFile } from '../readers/snapshot-file.js';
import { snapshotReadings } from '../readers/snapshot-views.js';
import { toolsDocument } from '../readers/tools-document.js';

/** What `concord check` is given to read: files and folders of a suite's material, and how to read them. */
export interface CheckInputs {
  /** Chat request bodies (or snapshot files of them), or folders of material. */
  requests: readonly string[];
  /** SDK files, system prompts (or snapshot files of them), or folders of material. */
  sdks: readonly string[];
  /** The language programs are written in, for SDK files that do not say. */
  language?: Language | undefined;
  /** A file of the function (or the tools) that run programs, offered beside the SDK files. */
  runCode?: string | undefined;
  /** The functions that run programs, by name: default run_code and those that take a `code` string. */
  codeTools?: readonly string[] | undefined;
  /** How a file is named in what is said: by default as given. */
  shown?: (file: string) => string;
}

/** What was read: every SDK shown, and the files that showed none or are nothing concord reads, each with why. */
export interface InputsRead {
  views: ModelView[];
  /** Material that shows no SDK: not a Code Mode prompt. */
  noSdk: Array<{ file: string; why: string }>;
  /** Files met in a folder that are no material concord reads (a session log, an image). */
  notRead: Array<{ file: string; what: string }>;
}

/** The names of files a folder's material may be in: snapshots, JSON, prompts and code. */
const TEXT_FILE = /\.(?:md|markdown|txt)$/i;
const JSON_FILE = /\.json$/i;
const CODE_FILE = /\.(?:pyi?|[cm]?ts)$/i;
/** Folders a walk never enters: packages installed, version control, tools' own state. */
const SKIPPED_FOLDER = /^(?:node_modules|\..*)$/;

const REQUEST_TEXT_HINT = `${REQUEST_HINT}; a system prompt or an SDK kept as text is read by --sdk FILE`;

/**
 * Reads what `concord check` is given. A file named is read as what its option says it is; a folder is walked (not into
 * node_modules or hidden folders, not through links to folders) and each file read as what it holds, whichever option
 * named the folder: snapshot files, JSON (request bodies, tools documents), prompts, code. A folder holding one tools
 * document and prompt texts is one request: each prompt with those tools.
 */
export async function readCheckInputs(inputs: CheckInputs): Promise<InputsRead> {
  const shown = inputs.shown ?? ((file: string) => file);
  const runCode =
    inputs.runCode === undefined
      ? undefined
      : codeToolFile(await readNamedInput(inputs.runCode, 'a code tool'), shown(inputs.runCode), inputs.codeTools);
  const read: InputsRead = { views: [], noSdk: [], notRead: [] };
  const reader = new MaterialReader(inputs, runCode, shown, read);
  for (const path of inputs.requests) await reader.path(path, 'request');
  for (const path of inputs.sdks) await reader.path(path, 'sdk');
  return read;
}

/** What a file named on the command line is taken as. */
type Named = 'request' | 'sdk';

class MaterialReader {
  constructor(
    private readonly inputs: CheckInputs,
    private readonly runCode: RequestDocument['wire'] | undefined,
    private readonly shown: (file: string) => string,
    private readonly read: InputsRead,
  ) {}

  async path(path: string, named: Named): Promise<void> {
    if (statSync(path).isDirectory()) await this.folder(path);
    else await this.namedFile(path, named);
  }

  private async namedFile(file: string, named: Named): Promise<void> {
    const text = await readNamedInput(file, named === 'request' ? 'a chat request body' : 'an SDK file');
    const source = this.shown(file);
    if (isSnapshotFile(file, text)) return this.snapshotFile(text, file);
    if (named === 'request' || JSON_FILE.test(file)) {
      const parsed = parseJsonText(text);
      const hint = named === 'request' ? REQUEST_TEXT_HINT : REQUEST_HINT;
      const what = named === 'request' ? 'the request' : 'the tools file';
      if ('problem' in parsed) throw new CheckInputError(source, `${what} ${parsed.problem}`, hint);
      const reading = jsonReading(parsed.value, source, this.requestOptions(false));
      if ('other' in reading) throw new CheckInputError(source, `$ is ${reading.other}`, hint);
      return this.take(file, reading);
    }
    this.take(file, sdkFileView(text, source, this.sdkOptions(false, this.runCode)));
  }

  /** Each file below a folder, in order of name, a folder's own files before its folders'. */
  private async folder(path: string): Promise<void> {
    const entries = readdirSync(path, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    const files = entries.filter((entry) => this.isFile(path, entry)).map((entry) => join(path, entry.name));
    await this.folderFiles(files);
    for (const entry of entries)
      if (entry.isDirectory() && !SKIPPED_FOLDER.test(entry.name)) await this.folder(join(path, entry.name));
  }

  /** Whether an entry is a file to read; a link to a folder is not followed, and said so, as is a pipe. */
  private isFile(path: string, entry: Dirent): boolean {
    if (entry.isFile()) return true;
    if (entry.isDirectory()) return false;
    if (!entry.isSymbolicLink()) {
      this.read.notRead.push({ file: this.shown(join(path, entry.name)), what: 'a pipe, socket or device' });
      return false;
    }
    const target = statSync(join(path, entry.name), { throwIfNoEntry: false });
    if (target?.isFile()) return true;
    this.read.notRead.push({ file: this.shown(join(path, entry.name)), what: 'a link that is not to a file' });
    return false;
  }

  /** The files of one folder: its one tools document, if it has one, goes with its prompts. */
  private async folderFiles(files: readonly string[]): Promise<void> {
    const json = new Map<string, unknown>();
    for (const file of files.filter((name) => JSON_FILE.test(name))) {
      const parsed = parseJsonText(await readNamedInput(file, 'a JSON file'));
      if ('problem' in parsed) this.read.notRead.push({ file: this.shown(file), what: `JSON that ${parsed.problem}` });
      else json.set(file, parsed.value);
    }
    const toolsFiles = [...json].filter(([file, value]) => toolsDocument(value, this.shown(file)) !== undefined);
    const [toolsFile] = toolsFiles.length === 1 ? toolsFiles : [];
    const prompts = files.filter((file) => TEXT_FILE.test(file));
    const pairedWire = toolsFile === undefined || prompts.length === 0 ? undefined : this.wireOf(toolsFile);
    let paired = false;
    for (const file of files) {
      const text = JSON_FILE.test(file) ? undefined : await readNamedInput(file, 'a file of material');
      if (text !== undefined && isSnapshotFile(file, text)) this.snapshotFile(text, file, true);
      else if (TEXT_FILE.test(file) || CODE_FILE.test(file)) {
        const wire = TEXT_FILE.test(file) ? (pairedWire ?? this.runCode) : this.runCode;
        const reading = sdkFileView(text!, this.shown(file), this.sdkOptions(true, wire));
        paired ||= pairedWire !== undefined && 'views' in reading && TEXT_FILE.test(file);
        this.take(file, reading);
      } else if (!json.has(file) && !JSON_FILE.test(file)) {
        this.read.notRead.push({ file: this.shown(file), what: whatFile(file) });
      }
    }
    for (const [file, value] of json) {
      const reading = jsonReading(value, this.shown(file), this.requestOptions(true));
      // A tools document read with its folder's prompts is part of their request: its own SDKs, if it shows any, are
      // read only when no prompt showed one, and the prompts already said they show none.
      if (file === toolsFile?.[0] && pairedWire !== undefined && (paired || !('views' in reading))) continue;
      this.take(file, reading);
    }
  }

  private wireOf([file, value]: [string, unknown]): RequestDocument['wire'] {
    const source = this.shown(file);
    return (toolsDocument(value, source) ?? []).map(({ path, tool }) => ({ place: `${source} ${path}`, tool }));
  }

  private snapshotFile(text: string, file: string, found = false): void {
    const readings = snapshotReadings(text, this.shown(file), {
      ...this.sdkOptions(found, this.runCode),
    });
    const views = readings.flatMap(({ reading }) => ('views' in reading ? reading.views : []));
    if (views.length > 0) this.read.views.push(...views);
    else this.take(file, readings.find(({ reading }) => 'none' in reading)?.reading ?? readings[0]!.reading);
  }

  /** A file's reading, said where it belongs. */
  private take(file: string, reading: Reading): void {
    if ('views' in reading) this.read.views.push(...reading.views);
    else if ('none' in reading) this.read.noSdk.push({ file: this.shown(file), why: reading.none });
    else this.read.notRead.push({ file: this.shown(file), what: reading.other });
  }

  private requestOptions(found: boolean) {
    return { codeTools: this.inputs.codeTools, found };
  }

  private sdkOptions(found: boolean, wire: RequestDocument['wire'] | undefined) {
    return { ...this.requestOptions(found), language: this.inputs.language, wire };
  }
}

/** What a file of a kind concord does not read is, as the summary counts it: `a .jsonl file`. */
function whatFile(file: string): string {
  const extension = extname(file).toLowerCase();
  return extension === '' ? 'a file without an extension' : `a ${extension} file`;
}
