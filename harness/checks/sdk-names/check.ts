import { readSdkSection } from '../../../contract/sdk-section.js';
import { type Finding, SDK_NAMES } from '../../findings.js';
import { LANGUAGE_PACKS, type LanguagePack, type SdkNames } from '../../languages/index.js';
import { nameList } from '../../text/name-list.js';
import type { CheckInput, ViewCheck } from '../types.js';
import { namingProblems } from './naming.js';

/**
 * Every name the SDK declares is unique after the language's normalization, and every registered tool is
 * reachable from it exactly once: a renderer that drops, merges or shadows a tool fails with the names. A block that
 * offers no tool at all is one fault, said once, not as every registered tool left unreachable.
 */
export const sdkNamesCheck: ViewCheck = {
  id: SDK_NAMES,
  async run({ view, session }: CheckInput): Promise<Finding[]> {
    const section = view.requests[0]?.sdkSection;
    const block = section === undefined ? undefined : readSdkSection(section).block;
    if (block === undefined) return [];
    const pack = LANGUAGE_PACKS[view.language];
    const names = await pack.readNames(block.body, session, view.toolsObject);
    const { registered } = view;
    // A registry known to hold no tool is offered none rightly.
    const offersNone = names.reaches.length === 0 && (registered === undefined || registered.names.length > 0);
    const messages = namingProblems(pack, names, offersNone ? undefined : registered).map(
      (problem) => `${view.sdkName}: ${problem}`,
    );
    if (offersNone) messages.push(`${view.sdkName} offers no tool: ${noToolReason(pack, names, view.toolsObject)}`);
    return messages.map((message) => ({ check: SDK_NAMES, severity: 'error', message }));
  },
};

/**
 * What a block that offers no tool declares instead of the tools object, and, when it binds other values, the way to
 * read the tools off one of them: a runtime may bind the tools under its own name (`codemode.name(…)`).
 */
function noToolReason(pack: LanguagePack, names: SdkNames, object: string): string {
  // Bound, but typed so that no name is one: an empty type, or a catch-all that reaches any name and shows none.
  if (names.bindings.includes(object)) return pack.noTool.emptyObject(object);
  const ways = pack.noTool.ways(object);
  const others = [...new Set(names.bindings)].filter((name) => name !== object && name !== 'ToolCallError');
  if (others.length === 0) return `it declares none of ${ways}`;
  return (
    `it declares none of ${ways}, but binds ${nameList(others.map((name) => `\`${name}\``))}; if your runtime binds ` +
    `the tools under another name, give it: --tools-object ${others[0]} (toolsObject in the API and the matcher)`
  );
}
