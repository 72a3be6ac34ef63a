export { codeMarkersOf, proseMarkersOf, withoutRuledOut } from './markers/read.js';
export type { BoundNamesProbe, LanguagePack, StubJudge, StubVerdict, TypeChecker } from './pack.js';
export { LANGUAGE_PACKS, LANGUAGES, otherPacks, usesInterpreters } from './packs.js';
export { BOUND, type ProbeReport } from './probe.js';
export {
  type Collision,
  DEFAULT_TOOLS_OBJECT,
  type Declared,
  type Reach,
  type Registered,
  type SdkNames,
} from './sdk-names.js';
export { sdkParts } from './sdk-parts.js';
export type { ProgramDiagnostic, ScriptedProgram } from './typecheck.js';
export { NESTS_TOO_DEEPLY, TYPESCRIPT_COMPILER } from './typescript/compiler.js';
