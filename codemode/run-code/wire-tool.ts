import { RUN_CODE_TOOL } from '../../contract/backend.js';
import type { WireTool } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import { RUN_CODE_TEXT, type RunCodeText } from './descriptions.js';
import { languageEntry } from './languages.js';

/**
 * The `run_code` tool as the model sees it, worded for the language the mounted runtime runs.
 * `overrides` replace table entries (the registry's `runCodeText` config).
 */
export function runCodeWireTool(
  language: Language | string,
  overrides: Partial<Record<Language, RunCodeText>> = {},
): WireTool {
  const text = languageEntry({ ...RUN_CODE_TEXT, ...overrides }, language, RUN_CODE_TOOL);
  return {
    name: RUN_CODE_TOOL,
    description: text.tool,
    parameters: {
      type: 'object',
      properties: {
        code: { type: 'string', description: text.code },
        description: { type: 'string', description: 'One short sentence saying what the program does, for the log.' },
      },
      required: ['code', 'description'],
      additionalProperties: false,
    },
  };
}
