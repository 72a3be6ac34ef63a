import type { SystemSection } from '../../contract/model.js';
import type { ToolMode } from '../tools/config.js';

/** In `mode: code` the model sees only `run_code`: this rule says so plainly. */
export const CODE_ONLY_RULE = [
  'Use the run_code tool for everything you do with tools.',
  'Each call runs one program. In it, call the tools described in the tools SDK section through `tools`, combine their results as you need, and return what you want to see.',
  'The tools in the SDK section are not offered to you as separate tools: they can only be reached from a program.',
].join('\n');

/** The system prompt, in order: persona, the code-only rule (mode code), the tools SDK (modes code and both). */
export function systemSections(persona: string, mode: ToolMode, sdkSection: () => string): SystemSection[] {
  const sections: SystemSection[] = [{ id: 'persona', text: persona }];
  if (mode === 'code') sections.push({ id: 'code-only', text: CODE_ONLY_RULE });
  if (mode !== 'native') sections.push({ id: 'tools:sdk', text: sdkSection() });
  return sections;
}
