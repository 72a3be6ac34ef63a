import { readSdkSection } from '../../../contract/sdk-section.js';
import { CheckInputError } from '../input-error.js';
import type { Reading } from '../material.js';
import { codeToolsOf, type ModelView } from '../model-view.js';

/** The stubs of the SDK block of SECTION. */
export const STUBS = 'class Tools:\n    async def a(self, args: dict) -> dict: ...\n\ntools: Tools\n';
/** A `tools:sdk` section: prose, and one fenced block of Python stubs. */
export const SECTION = `Write Python.\n\n\`\`\`python\n${STUBS}\`\`\`\n`;
/** A run_code function as Chat Completions writes it. */
export const RUN_CODE = {
  type: 'function',
  function: {
    name: 'run_code',
    description: 'Runs a Python program.',
    parameters: { type: 'object', properties: { code: { type: 'string' } } },
  },
};

/** The views a reading holds; a reading of none, or of something else, fails the test saying why. */
export function viewsOf(reading: Reading): ModelView[] {
  if ('views' in reading) return reading.views;
  throw new Error('none' in reading ? `no SDK: ${reading.none}` : `not read: ${reading.other}`);
}

/** Why a reading holds no SDK; undefined when it holds one. */
export const noneOf = (reading: Reading): string | undefined => ('none' in reading ? reading.none : undefined);

/** The message of the CheckInputError that `read` throws (the file, the place, the hint). */
export function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof CheckInputError) return error.message;
    throw error;
  }
  throw new Error('the input was read');
}

/** What a view says of its one request: the section, its first code tool and where that was met, tools and notes. */
export function subjectOf(view: ModelView) {
  const request = view.requests[0]!;
  const [runCode] = codeToolsOf(view, request);
  return {
    source: view.source,
    language: view.language,
    section: request.sdkSection!,
    codeTools: view.codeTools,
    runCode,
    runCodeSource: runCode === undefined ? undefined : view.toolPlaces?.get(runCode.name)?.replace(/^in /, ''),
    registered: view.registered,
    unchecked: view.notes.length === 0 ? undefined : view.notes,
  };
}

/** The code of a subject's SDK block. */
export const blockOf = (subject: { section: string }) => readSdkSection(subject.section).block?.body;
