import { fencedBlock } from '../../contract/sdk-section.js';
import type { Language } from '../../runtimes/seam/types.js';
import { renderPythonSdk } from '../sdk/python/index.js';
import { renderTypeScriptSdk } from '../sdk/typescript/index.js';
import type { SdkOptions, SdkRenderer, ToolDefinition } from '../tools/types.js';
import { type LanguageTable, languageEntry } from './languages.js';

export const SDK_RENDERERS: LanguageTable<SdkRenderer> = {
  typescript: renderTypeScriptSdk,
  python: renderPythonSdk,
};

/** Markdown info strings of the fence around each language's SDK. */
const FENCE_INFO: LanguageTable<string> = {
  typescript: 'typescript',
  python: 'python',
};

/** The SDK of `tools` in `language`, without a fence: a file a compiler can read. */
export function renderSdk(language: Language | string, tools: readonly ToolDefinition[], options?: SdkOptions): string {
  const body = languageEntry(SDK_RENDERERS, language, 'tools:sdk')(tools, options);
  return body.endsWith('\n') ? body : body + '\n';
}

/**
 * The `tools:sdk` prompt section: the SDK fenced in its language. The fence is longer than any run of
 * backticks inside the SDK (descriptions may contain fences of their own), so the block cannot end early.
 */
export function renderSdkSection(
  language: Language | string,
  tools: readonly ToolDefinition[],
  options?: SdkOptions,
): string {
  const info = languageEntry(FENCE_INFO, language, 'tools:sdk');
  return fencedBlock(renderSdk(language, tools, options), info);
}
