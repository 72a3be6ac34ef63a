import type { PythonVersion } from '../../../codemode/index.js';
import { readSdkSection } from '../../../contract/sdk-section.js';
import type { StubCell } from '../../interpreters/types.js';
import type { Session } from '../../session.js';
import { languageProblems } from '../language/check.js';
import { cachedSdkNames, namingProblems } from '../sdk-names/index.js';
import { judgeStubs } from '../stub-validity.js';
import { checkWithTsc } from '../typecheck/cached-tsc.js';
import type { Finding } from '../types.js';
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
  ).map((message) => ({ check: 'language-agreement', severity: 'error', message }));
  if (block === undefined || block.language !== language) return { findings, cells: [] };
  const blockName = `the SDK block of ${source}`;
  const error = (check: string, message: string) => findings.push({ check, severity: 'error', message });

  const names = await cachedSdkNames(language, block.body, session);
  for (const problem of namingProblems(language, names, subject.registered))
    error('sdk-names', `${blockName}: ${problem}`);
  if (names.reaches.length === 0) {
    const ways =
      language === 'python'
        ? '`tools: Tools` with a class `Tools`, a class `tools`, or module-level functions'
        : '`declare const tools: …`, a class or a namespace named `tools`';
    error('sdk-names', `${blockName} offers no tool: it declares none of ${ways}`);
  }

  if (language === 'typescript') {
    for (const diagnostic of await checkWithTsc(session, block.body, [])) {
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
