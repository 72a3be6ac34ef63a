import type { PythonVersion } from '../../codemode/index.js';
import type { JsonValue, Language } from '../../runtimes/seam/types.js';
import type { Finding } from '../findings.js';
import type { InterpreterInventory } from '../interpreters/inventory.js';
import type { StubCell } from '../interpreters/types.js';
import type { Session } from '../session.js';
import type { LanguageMarkers } from './markers/types.js';
import type { ProbeReport } from './probe.js';
import type { SdkNames } from './sdk-names.js';
import type { ProgramDiagnostic, ScriptedProgram } from './typecheck.js';

/** What a language's stub judge found of an SDK block, and the stub matrix's row of it. */
export interface StubVerdict {
  findings: Finding[];
  /** One cell per interpreter that judged the block. */
  cells: Array<Omit<StubCell, 'scenario' | 'runtime'>>;
}

/**
 * The judge of an SDK block as code that must run, where the language has one (Python: compiled and executed as a
 * module on every interpreter of the inventory, and its names read with the floor's Unicode tables).
 */
export interface StubJudge {
  /** `name` is how findings name the block (`tools-sdk.py`, `the SDK block of body.json $.system`). */
  judge(sdk: string, floor: PythonVersion, inventory: InterpreterInventory, name: string): Promise<StubVerdict>;
  /** The block's names the floor's parser cannot read, as one sentence; undefined when there are none. */
  pastFloor(sdk: string, floor: PythonVersion): string | undefined;
}

/** How a language's type checker is run over a scenario's programs against the SDK the model read. */
export interface TypeChecker {
  /** The checker's name, as a finding starts: `tsc`, `pyright`. */
  name: string;
  /** The checker as a finding about the SDK itself says it: `tsc`, `pyright for Python 3.9`. */
  describe(floor: PythonVersion): string;
  /**
   * The checker's diagnostics of `programs` against `sdk`, at the programs' own lines; without a program, about the
   * SDK itself. A language whose SDK other checks judge whole may check nothing when no program is given.
   */
  check(
    session: Session,
    sdk: string,
    programs: readonly ScriptedProgram[],
    floor: PythonVersion,
  ): Promise<ProgramDiagnostic[]>;
}

/** The bound-names probe of a language: a program that reports what it can see, and what is wrong in its report. */
export interface BoundNamesProbe {
  /** The names the SDK declares that must not be values at run time (its types). */
  declared(sdk: string, session: Session): Promise<string[]>;
  /** The probe program, looking up each of `declared`. */
  program(declared: readonly string[]): string;
  /** The probe's report read from the value it returned; undefined when the runtime did not run it faithfully. */
  read(value: JsonValue | undefined): ProbeReport | undefined;
  /** Everything the report shows that a program should not see, or lacks. */
  problems(report: ProbeReport, declared: readonly string[]): Promise<string[]>;
}

/**
 * Everything the harness knows of one language a Code Mode runtime speaks, in one place: how the model is told it
 * (its names, its fences, its markers in prose and code), where its SDK is kept, how its SDK's names and comments are
 * read, and how it is judged (the type checker, the stub judge, the bound-names probe). A check asks the pack of the
 * language at hand and never branches on a language's name; adding a language is adding a pack (see
 * docs/architecture.md).
 */
export interface LanguagePack {
  language: Language;
  /** The language as prose names it: `Python`, `TypeScript`. */
  name: string;
  /** How a description names the language programs are written in, and how a finding says what it expected. */
  naming: { pattern: RegExp; names: string };
  /** The words an SDK fence's info string may start with (compared without case). */
  fenceWords: readonly string[];
  /** The snapshot file that holds the SDK block (`tools-sdk.py`). */
  sdkFile: string;
  /** The names of a file of the language's code: read whole by a compiler, it is the bare code of an SDK. */
  codeFile: RegExp;
  /** A whole line that is a comment, and the comments and string literals of its code (removed before markers are read). */
  trivia: { commentLine: RegExp; pattern: RegExp };
  markers: LanguageMarkers;
  /** How two declarations are compared for a collision, as a finding says it (`after NFKC`). */
  normalization: string;
  /** Whether `name` is one a program can bind the tools under. */
  isBindableName(name: string): boolean;
  /** The names an SDK block declares and the tools it reaches, read off `object`; cached where reading is costly. */
  readNames(sdk: string, session: Pick<Session, 'cache' | 'slot'>, object: string): Promise<SdkNames>;
  /** What an SDK offering no tool should declare instead, and the words for a tools object whose type names none. */
  noTool: { ways(object: string): string; emptyObject(object: string): string };
  /** Whether a piece of code only declares (types, functions, a tools object) rather than running a program. */
  declaresOnly(code: string): boolean;
  /** Whether a piece of code declares anything a program could call or name: what tells an SDK from an example. */
  declaresSome(code: string): boolean;
  typeChecker: TypeChecker;
  /**
   * The SDK a text holds in this language without a fence naming it (declarations between prose, as some renderers
   * write a code tool's description), as a `tools:sdk` section; a problem when what looks like one does not parse.
   */
  unfencedSection?(text: string): { section: string } | { problem: string } | undefined;
  /** The stub judge, where the language has one; its SDKs then need the session's interpreters. */
  stubs?: StubJudge;
  probe: BoundNamesProbe;
}
