import { createHash } from 'node:crypto';
import { SDK_FENCE_WORDS } from '../../../contract/sdk-section.js';
import { PYTHON_HARD_KEYWORDS } from '../../../runtimes/seam/python-keywords.js';
import type { LanguagePack, TypeChecker } from '../pack.js';
import { pythonDeclaresOnly, pythonDeclaresSome } from './declarations.js';
import { PYTHON_MARKERS } from './markers.js';
import { pythonSdkNames } from './names.js';
import { PYTHON_PROBE } from './probe.js';
import { PYTHON_SDK_FILE, PYTHON_STUBS } from './stubs.js';
import { typecheckPython } from './typecheck.js';

/** An identifier as CPython reads it (after NFKC): what a Python program can bind the tools under. */
const PYTHON_NAME = /^[\p{XID_Start}_][\p{XID_Continue}]*$/u;

// A triple-quoted string ends at the first unescaped run of its quotes: `\"""` inside it does not end it.
const PYTHON_TRIVIA =
  /[rRbBuUfF]{0,2}(?:"""(?:\\[\s\S]|(?!""")[^\\])*"""|'''(?:\\[\s\S]|(?!''')[^\\])*'''|"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*')|#[^\n]*/g;

/**
 * pyright, for the floor itself: a program or stub using what the floor lacks fails at its line. The stubs alone are
 * judged by the stub checks, so with no program there is nothing to check. The same SDK and programs on several
 * Python runtimes of a scenario are checked once per session.
 */
const PYRIGHT: TypeChecker = {
  name: 'pyright',
  describe: (floor) => `pyright for Python ${floor}`,
  async check(session, sdk, programs, floor) {
    if (programs.length === 0) return [];
    const key = createHash('sha256')
      .update(JSON.stringify([floor, sdk, programs]))
      .digest('hex');
    return session.once(`typecheck-programs ${key}`, () => typecheckPython(session, sdk, programs, floor));
  },
};

export const PYTHON_PACK: LanguagePack = {
  language: 'python',
  name: 'Python',
  naming: { pattern: /\bPython\b/, names: 'Python' },
  fenceWords: SDK_FENCE_WORDS.python,
  sdkFile: PYTHON_SDK_FILE,
  codeFile: /\.pyi?$/i,
  trivia: { commentLine: /^\s*#/, pattern: PYTHON_TRIVIA },
  markers: PYTHON_MARKERS,
  normalization: 'after NFKC',
  isBindableName(name) {
    const read = name.normalize('NFKC');
    return PYTHON_NAME.test(read) && !PYTHON_HARD_KEYWORDS.includes(read);
  },
  readNames: async (sdk, _session, object) => pythonSdkNames(sdk, object),
  noTool: {
    ways: (object) => `\`${object}: Tools\` with a class \`Tools\`, a class \`${object}\`, or module-level functions`,
    emptyObject: (object) =>
      `\`${object}\` is declared, but its class names no tool: an empty class, or a \`__getattr__\` that lists no names, shows the model no tool's name, arguments or result; declare each tool as a method of the class`,
  },
  declaresOnly: pythonDeclaresOnly,
  declaresSome: pythonDeclaresSome,
  typeChecker: PYRIGHT,
  stubs: PYTHON_STUBS,
  probe: PYTHON_PROBE,
};
