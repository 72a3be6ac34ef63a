import { RUN_CODE_TOOL } from '../../contract/backend.js';
import type { Language } from '../../runtimes/seam/types.js';
import { parseJsonText } from '../guarded/json-input.js';
import type { ModelView, ShownFunction } from './model-view.js';
import { CheckInputError, fencedLanguages, isRequestBody, requestView, sdkFileView } from './request.js';
import { type SnapshotEntry, snapshotEntries } from './snapshot-file.js';

// What a suite's snapshot files hold, as concord check reads them: request bodies (--request) and system prompts (--sdk).

/**
 * The request bodies a vitest (or Jest) snapshot file holds, each read as `requestView` reads a body: a snapshot of
 * the body itself, or of its JSON text. Snapshots of anything else are left out; a file with no request among them is
 * bad input, saying how many snapshots it holds and why any could not be read back (`orNone`: none, as one file of a
 * folder may hold none).
 */
export function snapshotViews(
  text: string,
  file: string,
  codeTool: string = RUN_CODE_TOOL,
  orNone = false,
): ModelView[] {
  const entries = snapshotsOf(text, file, SNAPSHOT_HINT);
  const subjects = entries.flatMap((entry) => {
    if (!('value' in entry)) {
      // A body that cannot be read back is bad input, not a snapshot of something else to leave out.
      if (entry.printed !== undefined && PRINTED_REQUEST.test(entry.printed))
        throw new CheckInputError(
          file,
          `snapshot ${JSON.stringify(entry.name)} (line ${entry.line}) holds a chat request body that cannot be read back: ${entry.problem}`,
          SNAPSHOT_HINT,
        );
      return [];
    }
    const body = typeof entry.value === 'string' ? jsonObject(entry.value) : entry.value;
    return isRequestBody(body)
      ? [requestView(JSON.stringify(body), `${file} ${JSON.stringify(entry.name)}`, codeTool)]
      : [];
  });
  if (subjects.length === 0 && !orNone) {
    const unread = entries.filter((entry) => 'problem' in entry);
    const why = unread.map(
      (entry) => `${JSON.stringify(entry.name)} (line ${entry.line}): ${'problem' in entry ? entry.problem : ''}`,
    );
    throw new CheckInputError(
      file,
      `none of its ${entries.length} snapshot(s) is a chat request body${why.length === 0 ? '' : `; not read back: ${why.slice(0, 3).join('; ')}${why.length > 3 ? ` and ${why.length - 3} more` : ''}`}`,
      SNAPSHOT_HINT,
    );
  }
  return subjects;
}

/**
 * The SDK sections a vitest (or Jest) snapshot file holds: each snapshot of a text with a fenced block naming a
 * language (a suite's `expect(systemPrompt).toMatchSnapshot()`), read as `sdkFileView` reads a section, in
 * `language` or the one its fences name. Snapshots of anything else are left out; a file with none is bad input
 * (`orNone`: none, as one file of a folder may hold none).
 */
export function snapshotSectionViews(
  text: string,
  file: string,
  language: Language | undefined,
  runCode?: ShownFunction,
  runCodeSource?: string,
  orNone = false,
): ModelView[] {
  const entries = snapshotsOf(text, file, SECTION_HINT);
  const subjects = entries.flatMap((entry) => {
    if (!('value' in entry) || typeof entry.value !== 'string') return [];
    const section = entry.value;
    const named = fencedLanguages(section);
    if (named.size === 0) return [];
    const source = `${file} ${JSON.stringify(entry.name)}`;
    const read = language ?? (named.size === 1 ? [...named][0] : undefined);
    if (read === undefined)
      throw new CheckInputError(
        source,
        'its fences name both languages',
        'say which the SDK is in: --language python or --language typescript',
      );
    return [sdkFileView(section, source, read, runCode, runCodeSource)];
  });
  if (subjects.length === 0 && !orNone)
    throw new CheckInputError(
      file,
      `none of its ${entries.length} snapshot(s) is a text holding a fenced SDK block (\`\`\`python or \`\`\`ts)`,
      SECTION_HINT,
    );
  return subjects;
}

const SECTION_HINT =
  'snapshot the system prompt your backend sends, which holds the tools:sdk section: expect(systemPrompt).toMatchSnapshot(); a snapshot of the whole request body is read by --request';

/** A printed object whose own keys (two spaces in) hold a conversation where a request body does. */
const PRINTED_REQUEST = /^ {2}"(?:messages|input|prompt|contents)": /m;

const SNAPSHOT_HINT =
  'snapshot the JSON text of the body your backend sends its model, which reads back exactly: expect(JSON.stringify(body, null, 2)).toMatchSnapshot(), or to a file: .toMatchFileSnapshot("requests/name.json")';

/** The entries of a snapshot file; one with none is bad input. */
function snapshotsOf(text: string, file: string, hint: string): SnapshotEntry[] {
  const entries = snapshotEntries(text);
  if (entries === undefined) throw new CheckInputError(file, 'holds no snapshot (exports[`name`] = `…`;)', hint);
  return entries;
}

/** The object a JSON text holds, or undefined. */
function jsonObject(text: string): unknown {
  const parsed = parseJsonText(text);
  return 'problem' in parsed ? undefined : parsed.value;
}
