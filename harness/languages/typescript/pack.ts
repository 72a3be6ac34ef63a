import { SDK_FENCE_WORDS } from '../../../contract/sdk-section.js';
import type { LanguagePack } from '../pack.js';
import { checkWithTsc } from './cached-tsc.js';
import { typescriptDeclaresOnly, typescriptDeclaresSome } from './declarations.js';
import { TYPESCRIPT_MARKERS } from './markers.js';
import { readTypeScriptNames } from './names.js';
import { TYPESCRIPT_PROBE } from './probe.js';
import { TYPESCRIPT_SDK_FILE } from './typecheck.js';
import { declarationsSection } from './unfenced.js';

/** An identifier (ECMAScript's IdentifierName): what a TypeScript program can bind the tools under. */
const TYPESCRIPT_NAME = /^[\p{ID_Start}_$][\p{ID_Continue}$\u200c\u200d]*$/u;

const TYPESCRIPT_TRIVIA =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:\\[\s\S]|[^"\\\n])*"|'(?:\\[\s\S]|[^'\\\n])*'|`(?:\\[\s\S]|[^`\\])*`/g;

export const TYPESCRIPT_PACK: LanguagePack = {
  language: 'typescript',
  name: 'TypeScript',
  // A runtime of the TypeScript family that runs JavaScript (types stripped, or none written) is told so as rightly.
  naming: { pattern: /\b(?:TypeScript|JavaScript)\b/, names: 'TypeScript or JavaScript' },
  fenceWords: SDK_FENCE_WORDS.typescript,
  sdkFile: TYPESCRIPT_SDK_FILE,
  codeFile: /\.[cm]?ts$/i,
  trivia: { commentLine: /^\s*\/\//, pattern: TYPESCRIPT_TRIVIA },
  markers: TYPESCRIPT_MARKERS,
  normalization: 'as written',
  isBindableName: (name) => TYPESCRIPT_NAME.test(name),
  readNames: readTypeScriptNames,
  noTool: {
    ways: (object) =>
      `\`declare const ${object}: …\`, a class or a namespace named \`${object}\`, or functions of its own`,
    emptyObject: (object) =>
      `\`${object}\` is declared, but its type names no tool: an empty type, or an index signature such as \`Record<string, …>\`, shows the model no tool's name, arguments or result; declare each tool as a member of its type`,
  },
  declaresOnly: typescriptDeclaresOnly,
  declaresSome: typescriptDeclaresSome,
  // The compiler checks the SDK itself too, with or without programs.
  typeChecker: {
    name: 'tsc',
    describe: () => 'tsc',
    check: (session, sdk, programs) => checkWithTsc(session, sdk, programs),
  },
  unfencedSection: declarationsSection,
  probe: TYPESCRIPT_PROBE,
};
