import type { PythonVersion } from '../../../codemode/index.js';
import { readSdkSection } from '../../../contract/sdk-section.js';
import { compilerOutOfStack } from '../../../runtimes/seam/typescript.js';
import type { StubCell } from '../../interpreters/types.js';
import type { Session } from '../../session.js';
import { nameList } from '../../text/name-list.js';
import { languageProblems } from '../language/check.js';
import { cachedSdkNames, DEFAULT_TOOLS_OBJECT, namingProblems, type SdkNames } from '../sdk-names/index.js';
import { judgeStubs } from '../stub-validity.js';
import { checkWithTsc } from '../typecheck/cached-tsc.js';
import type { Finding } from '../types.js';
import { NESTS_TOO_DEEPLY } from '../typescript-compiler.js';
import { floorUnicode, pastFloorNames, showPastFloor } from './floor-names.js';
import type { SdkSubject } from './subject.js';

/** What the checks of one subject found, and the stub matrix's row of it (Python). */
export interface SubjectVerdict {
  findings: Finding[];
  cells: Array<Omit<StubCell, 'scenario' | 'runtime'>>;
}

/**
 * Every check concord runs on what a model is shown, without assembling an app: the language agreement of the
 * section, its block and the `run_code` descriptions; the names (declarations that collide, tools no way reaches);
 * Python: the stubs compiled and executed as a module on every interpreter of the session from the floor up, and
 * the block's names against the floor's Unicode tables; TypeScript: the block type-checked by the compiler. The
 * session's verdict cache serves what an earlier run judged.
 */
export async function checkSubject(
  subject: SdkSubject,
  { floor, session }: { floor: PythonVersion; session: Session },
): Promise<SubjectVerdict> {
  const { language, source } = subject;
  const block = readSdkSection(subject.section).block;
  const findings: Finding[] = languageProblems(
    { section: subject.section, runCode: subject.runCode },
    language,
    `in ${source}`,
    `in ${subject.runCodeSource ?? source}`,
  ).map((problem) => ({ check: 'language-agreement', ...problem }));
  for (const message of subject.unchecked ?? [])
    findings.push({ check: 'language-agreement', severity: 'note', message });
  if (block === undefined || block.language !== language) return { findings, cells: [] };
  const blockName = `the SDK block of ${source}`;
  const error = (check: string, message: string) => findings.push({ check, severity: 'error', message });

  const object = subject.toolsObject ?? DEFAULT_TOOLS_OBJECT;
  // A block the compiler runs out of stack on is one finding; nothing else of it can be read.
  const readable = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (thrown) {
      if (!compilerOutOfStack(thrown)) throw thrown;
      error('typecheck', `${blockName} ${NESTS_TOO_DEEPLY}`);
      return undefined;
    }
  };
  const names = await readable(() => cachedSdkNames(language, block.body, session, object));
  if (names === undefined) return { findings, cells: [] };
  // A block that offers no tool is one fault, said once: not also as every registered tool left unreachable.
  const offersNone = names.reaches.length === 0;
  for (const problem of namingProblems(language, names, offersNone ? undefined : subject.registered))
    error('sdk-names', `${blockName}: ${problem}`);
  if (offersNone) error('sdk-names', `${blockName} offers no tool: ${noToolReason(language, names, object)}`);

  if (language === 'typescript') {
    for (const diagnostic of (await readable(() => checkWithTsc(session, block.body, []))) ?? []) {
      if (diagnostic.severity !== 'error') continue;
      error('typecheck', `${blockName} does not type-check (tsc): ${diagnostic.message.replace(/\n\s*/g, '; ')}`);
    }
    return { findings, cells: [] };
  }

  const past = pastFloorNames(block.body, floor);
  if (past.length > 0)
    error(
      'renderer-floor',
      `${blockName} writes ${past.length === 1 ? 'a name' : `${past.length} names`} that CPython ${floor} (Unicode ${floorUnicode(floor)}) cannot read: ${showPastFloor(past)}; write such a tool as a listed name (tools["…"]) and decide identifiers with the floor's Unicode tables`,
    );
  const stubs = await judgeStubs(block.body, floor, await session.inventory(), blockName);
  findings.push(...stubs.findings);
  return { findings, cells: stubs.cells };
}

/**
 * What a block that offers no tool declares instead of the tools object, and, when it binds other values, the way to
 * read the tools off one of them: a runtime may bind the tools under its own name (`codemode.name(…)`).
 */
function noToolReason(language: SdkSubject['language'], names: SdkNames, object: string): string {
  const ways =
    language === 'python'
      ? `\`${object}: Tools\` with a class \`Tools\`, a class \`${object}\`, or module-level functions`
      : `\`declare const ${object}: …\`, a class or a namespace named \`${object}\`, or functions of its own`;
  // Bound, but typed so that no name is one: an empty type, or a catch-all that reaches any name and shows none.
  if (names.bindings.includes(object))
    return language === 'python'
      ? `\`${object}\` is declared, but its class names no tool: an empty class, or a \`__getattr__\` that lists no names, shows the model no tool's name, arguments or result; declare each tool as a method of the class`
      : `\`${object}\` is declared, but its type names no tool: an empty type, or an index signature such as \`Record<string, …>\`, shows the model no tool's name, arguments or result; declare each tool as a member of its type`;
  const others = [...new Set(names.bindings)].filter((name) => name !== object && name !== 'ToolCallError');
  if (others.length === 0) return `it declares none of ${ways}`;
  return (
    `it declares none of ${ways}, but binds ${nameList(others.map((name) => `\`${name}\``))}; if your runtime binds ` +
    `the tools under another name, give it: --tools-object ${others[0]} (toolsObject in the API and the matcher)`
  );
}
