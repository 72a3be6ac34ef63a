import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderSdk } from '../../../codemode/run-code/sdk-section.js';
import { LANGUAGE_PACKS, type Registered, type SdkNames } from '../../languages/index.js';
import { decodePythonString, pythonSdkNames } from '../../languages/python/names.js';
import { TypeScriptCompiler } from '../../languages/typescript/compiler.js';
import { readTypeScriptNames, typescriptSdkNames } from '../../languages/typescript/names.js';
import { adversarialTools } from '../../probe/adversarial-tools.js';
import { Session } from '../../session.js';
import { committedScenarios, runPair } from '../test/run-pair.js';
import { registeredTools, viewOfRecord } from '../view-of-record.js';
import { sdkNamesCheck } from './check.js';
import { namingProblems as problemsOf } from './naming.js';

const all = (names: string[]) => ({ names, complete: true });
const compiler = new TypeScriptCompiler();
/** The names of an SDK block, read at once (no session, no cache). */
const sdkNames = (language: 'python' | 'typescript', sdk: string, object = 'tools') =>
  language === 'python' ? pythonSdkNames(sdk, object) : typescriptSdkNames(compiler, sdk, object);
const namingProblems = (language: 'python' | 'typescript', names: SdkNames, registered?: Registered) =>
  problemsOf(LANGUAGE_PACKS[language], names, registered);

describe('Python SDK names', () => {
  const sdk = [
    'from typing import Any, TypedDict',
    '',
    'class FileArgs(TypedDict):',
    '    text: str',
    '',
    'Odd = TypedDict("Odd", {"a-b": str})',
    '',
    'class Tools:',
    '    async def file(self, args: FileArgs) -> Any:',
    '        """class Hidden(TypedDict): not a declaration',
    '        # await tools["forged"](args) is prose, not a listing"""',
    '',
    '    async def __secret(self, args: Any) -> Any:',
    '        ...',
    '',
    '    # await tools["a-b\\n\\x00\\ud800"](args: Odd) -> Any',
    '    #     # await tools["described"](x) is a description line',
    '',
    'tools: Tools',
    '',
  ].join('\n');

  it('reads module-level declarations, methods (NFKC, mangling) and listed names, never inside strings', () => {
    const names = sdkNames('python', sdk);
    expect(names.declared.map((d) => d.name)).toEqual(['Any', 'TypedDict', 'FileArgs', 'Odd', 'Tools', 'tools']);
    expect(names.reaches.map((r) => [r.how, r.reaches, r.line])).toEqual([
      ['method', 'file', 9],
      ['method', undefined, 13],
      ['subscript', 'a-b\n\u0000\ud800', 16],
    ]);
  });

  it('passes when each tool is reachable once, and names the unreachable, the doubled and the unregistered', () => {
    expect(namingProblems('python', sdkNames('python', sdk), all(['file', 'a-b\n\u0000\ud800']))).toEqual([]);
    const doubled = sdk.replace('async def __secret(', 'async def \ufb01le(');
    expect(
      namingProblems('python', sdkNames('python', doubled), all(['file', 'a-b\n\u0000\ud800', '\ufb01le'])),
    ).toEqual([
      'tool "file" is reachable 2 times: method file (line 9, column 15); method \ufb01le (line 13, column 15)',
      'tool "\ufb01le" is not reachable from the SDK: no method and no listed name reaches it (method \ufb01le (line 13, column 15) reaches "file")',
    ]);
    expect(namingProblems('python', sdkNames('python', sdk), all(['file', 'a-b\n\u0000\ud800', '__secret']))).toEqual([
      'tool "__secret" is not reachable from the SDK: no method and no listed name reaches it (method __secret (line 13, column 15) reaches nothing (a mangled private name))',
    ]);
    expect(namingProblems('python', sdkNames('python', sdk), all(['file']))).toEqual([
      'listed "a-b\\n\\x00\\ud800" (line 16, column 5) offers "a-b\\n\\u0000\\ud800", but no tool of that name is registered',
    ]);
  });

  it('finds classes that are one name only after NFKC', () => {
    const shadowed = sdk.replace('Odd = TypedDict', '\uff26ileArgs = TypedDict');
    expect(namingProblems('python', sdkNames('python', shadowed))).toEqual([
      'declared names collide: FileArgs (line 3, column 7), \uff26ileArgs (line 6, column 1) are one name after NFKC (FileArgs); the last one shadows the others',
    ]);
  });

  it('decodes the escapes the renderer writes in a listed name', () => {
    expect(decodePythonString('"q\\"b\\\\s\\n\\t\\x00\\u2028\\U0001f600"')).toBe('q"b\\s\n\t\u0000\u2028\u{1f600}');
    expect(decodePythonString('"bad \\x0"')).toBeUndefined();
  });
});

describe('one problem for many tools', () => {
  const sdk = 'class Tools:\n    async def kept(self, args: dict) -> dict: ...\n\ntools: Tools\n';
  const tools = (count: number) => ['kept', ...Array.from({ length: count }, (_, i) => `lost_${i + 1}`)];

  it.each([1, 2, 5, 6, 40])(
    'names %i tools no way reaches in one problem, the first five and how many more',
    (count) => {
      const problems = namingProblems('python', sdkNames('python', sdk), all(tools(count)));
      expect(problems).toHaveLength(1);
      if (count === 1)
        expect(problems[0]).toBe(
          'tool "lost_1" is not reachable from the SDK: no method and no listed name reaches it',
        );
      else
        expect(problems[0]).toMatch(
          new RegExp(`^${count} tools are not reachable from the SDK: .* reaches "lost_1"(, | and )`),
        );
      if (count > 5) expect(problems[0]).toMatch(new RegExp(`"lost_5" and ${count - 5} more$`));
      else if (count > 1) expect(problems[0]).toMatch(new RegExp(`and "lost_${count}"$`));
    },
  );
});

describe('TypeScript SDK names, as the type checker resolves them', () => {
  const reached = (sdk: string) => sdkNames('typescript', sdk).reaches.map((r) => [r.how, r.reaches, r.line]);

  it('reads tools mapped over the keys of a map, as a renderer writes them', () => {
    const sdk = [
      'type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };',
      'interface ToolArgsMap { glossary_lookup: { word: string } }',
      'interface ToolOutputMap { glossary_lookup: { word: string } & Record<string, JsonValue> }',
      'type ToolName = keyof ToolOutputMap;',
      'declare const tools: { [K in ToolName]: (args: ToolArgsMap[K]) => Promise<ToolOutputMap[K]> };',
    ].join('\n');
    // A property a mapped type makes has no declaration of its own: its place is the one of `tools`.
    expect(reached(sdk)).toEqual([['method', 'glossary_lookup', 5]]);
    expect(namingProblems('typescript', sdkNames('typescript', sdk), all(['glossary_lookup']))).toEqual([]);
  });

  it('reads namespaces, classes, interfaces that extend, intersections and computed keys', () => {
    expect(
      reached('declare namespace tools {\n  function a(args: {}): Promise<void>;\n  function b(): void;\n}\n'),
    ).toEqual([
      ['method', 'a', 2],
      ['method', 'b', 3],
    ]);
    const classes =
      'declare class Tools {\n  #hidden: number;\n  a(args: {}): Promise<void>;\n  ["b-c"](args: {}): Promise<void>;\n}\ndeclare const tools: Tools;\n';
    expect(reached(classes)).toEqual([
      ['method', 'a', 3],
      ['subscript', 'b-c', 4],
    ]);
    const extended =
      'interface Base { a(): void }\ninterface Tools extends Base { "new"(): void }\ndeclare const tools: Tools & { c: () => void };\n';
    expect(reached(extended)).toEqual([
      ['method', 'a', 1],
      ['method', 'new', 2],
      ['method', 'c', 3],
    ]);
    // A block written as a module declares the object in `declare global`.
    const global =
      'type A = { q: string };\ndeclare global {\n  const tools: {\n    search(args: A): Promise<unknown>;\n  };\n}\nexport {};\n';
    expect(reached(global)).toEqual([['method', 'search', 4]]);
    expect(sdkNames('typescript', global).bindings).toEqual(['tools']);
    // A block that binds no value offers its functions, called by name; overloads are one way in.
    const functions =
      'type A = { q: string };\ndeclare function search(args: A): Promise<unknown>;\ndeclare function search(q: string): Promise<unknown>;\ndeclare function fetch_page(args: { id: number }): Promise<string>;\n';
    expect(reached(functions)).toEqual([
      ['method', 'search', 2],
      ['method', 'fetch_page', 4],
    ]);
    expect(namingProblems('typescript', sdkNames('typescript', functions), all(['search', 'fetch_page']))).toEqual([]);
    // One that binds another object is told so, its helper functions no tools.
    const elsewhere =
      'declare function sleep(ms: number): Promise<void>;\ndeclare const codemode: { search(): void };\n';
    expect(reached(elsewhere)).toEqual([]);
    expect(sdkNames('typescript', elsewhere).bindings).toEqual(['codemode']);
    // An index signature names no tool: a model could not read one off it.
    expect(reached('declare const tools: Record<string, (args: unknown) => Promise<unknown>>;\n')).toEqual([]);
    expect(reached('declare const notTools: { a(): void };\n')).toEqual([]);
  });

  it('lets interfaces merge, as TypeScript does, and names what the compiler calls a duplicate', () => {
    const merged = 'interface Tools { a(): void }\ninterface Tools { b(): void }\ndeclare const tools: Tools;\n';
    expect(namingProblems('typescript', sdkNames('typescript', merged), all(['a', 'b']))).toEqual([]);
    const doubled = 'type A = {};\ntype A = {};\ndeclare const tools: { a(): void };\n';
    expect(namingProblems('typescript', sdkNames('typescript', doubled))).toEqual([
      'declared names collide: A (line 1, column 6), A (line 2, column 6) are one name as written (A); the last one shadows the others',
    ]);
  });
});

describe('Python SDK names, as a Python grammar reads them', () => {
  const reached = (sdk: string) => sdkNames('python', sdk).reaches.map((r) => [r.how, r.reaches, r.line]);

  it('reads a Protocol, inherited methods, overloads, annotated attributes, Literal lookups and the module itself', () => {
    const protocol = [
      'from typing import Any, Awaitable, Callable, Literal, Protocol, overload',
      'class Base(Protocol):',
      '    async def a(self, args: Any) -> Any: ...',
      'class Tools(Base, Protocol):',
      '    @overload',
      '    def b(self, args: int) -> Awaitable[Any]: ...',
      '    @overload',
      '    def b(self, args: str) -> Awaitable[Any]: ...',
      '    c: Callable[[Any], Awaitable[Any]]',
      '    @overload',
      '    def __getitem__(self, name: Literal["d-e"]) -> Any: ...',
      '    @overload',
      '    def __getitem__(self, name: Literal["f g", "h"]) -> Any: ...',
      '    def __getitem__(self, name: str) -> Any: ...',
      '    def __init__(self) -> None: ...',
      'tools: Tools',
    ].join('\n');
    expect(reached(protocol)).toEqual([
      ['method', 'a', 3],
      ['method', 'b', 6],
      ['method', 'c', 9],
      ['subscript', 'd-e', 11],
      ['subscript', 'f g', 13],
      ['subscript', 'h', 13],
    ]);
    expect(namingProblems('python', sdkNames('python', protocol), all(['a', 'b', 'c', 'd-e', 'f g', 'h']))).toEqual([]);
    expect(reached('async def a(args): ...\n@overload\ndef b(args: int): ...\ndef b(args): ...\n')).toEqual([
      ['method', 'a', 1],
      ['method', 'b', 4],
    ]);
    expect(reached('class Tools:\n    async def a(self): ...\ntools = Tools()\n')).toEqual([['method', 'a', 2]]);
    expect(reached('class tools:\n    @staticmethod\n    async def a(): ...\n')).toEqual([['method', 'a', 3]]);
  });

  it('names a method defined twice in one class, and lets a subclass override its base', () => {
    const twice = 'class Tools:\n    async def a(self): ...\n    async def a(self, x): ...\ntools: Tools\n';
    expect(namingProblems('python', sdkNames('python', twice), all(['a']))).toEqual([
      'tool "a" is reachable 2 times: method a (line 2, column 15); method a (line 3, column 15)',
    ]);
    const overridden =
      'class B:\n    async def a(self): ...\nclass Tools(B):\n    async def a(self, x): ...\ntools: Tools\n';
    expect(reached(overridden)).toEqual([['method', 'a', 4]]);
  });

  it('lets a module catalog import a function from the tools package and then declare it, but not import one twice', () => {
    const catalog =
      'from tools.notes import add_note\nfrom tools import busy\n\ndef add_note(text: str) -> dict: ...\n\ndef busy(day: str) -> bool: ...\n';
    const names = pythonSdkNames(catalog);
    expect([names.collisions, names.reaches.map((r) => r.reaches)]).toEqual([[], ['add_note', 'busy']]);
    // Imported from two modules, the later import shadows the earlier; a name from elsewhere shadows the stub.
    expect(pythonSdkNames('from tools.a import f\nfrom tools.b import f\n').collisions.map((c) => c.key)).toEqual([
      'f',
    ]);
    expect(pythonSdkNames('from helpers import f\n\ndef f() -> None: ...\n').collisions.map((c) => c.key)).toEqual([
      'f',
    ]);
    // Under another tools object, its package is the one a catalog imports from.
    expect(pythonSdkNames('from codemode.x import f\ndef f() -> None: ...\n', 'codemode').collisions).toEqual([]);
  });
});

describe('TypeScript SDK names', () => {
  const sdk = [
    'declare class ToolCallError extends Error {}',
    'type AArgs = { x: string };',
    'declare const tools: {',
    '  /** doc: "quoted"(x) */',
    '  a(args: AArgs): Promise<unknown>;',
    '  "a-b"(args: AArgs): Promise<unknown>;',
    '  "new"(args: AArgs): Promise<unknown>;',
    '  new(args: AArgs): Promise<unknown>;',
    '};',
    '',
  ].join('\n');

  it('reads the members of tools: identifiers and quoted names, never a construct signature', () => {
    expect(sdkNames('typescript', sdk).reaches.map((r) => [r.how, r.reaches])).toEqual([
      ['method', 'a'],
      ['subscript', 'a-b'],
      ['method', 'new'],
    ]);
    expect(namingProblems('typescript', sdkNames('typescript', sdk), all(['a', 'a-b', 'new']))).toEqual([]);
  });

  it('names a duplicated type and a merged pair', () => {
    const merged = sdk.replace('"a-b"(', 'a(').replace('type AArgs', 'type AArgs = { y: number };\ntype AArgs');
    expect(namingProblems('typescript', sdkNames('typescript', merged), all(['a', 'a-b', 'new']))).toEqual([
      'declared names collide: AArgs (line 2, column 6), AArgs (line 3, column 6) are one name as written (AArgs); the last one shadows the others',
      'tool "a-b" is not reachable from the SDK: no method and no listed name reaches it',
    ]);
  });
});

describe('tools bound under another name', () => {
  // A runtime that binds the tools as `codemode`, and an SDK that declares them there.
  const typescript = [
    'type LookupInput = { word: string };',
    'declare const codemode: {',
    '  /** Looks a word up. */',
    '  lookup: (input: LookupInput) => Promise<unknown>;',
    '  "export-all"(input: {}): Promise<unknown>;',
    '};',
    'declare const version: string;',
    '',
  ].join('\n');
  const python = [
    'from typing import Any',
    'class Codemode:',
    '    async def lookup(self, args: Any) -> Any: ...',
    '    # codemode["export-all"]',
    '    # tools["stray"]',
    'codemode: Codemode',
    'Color = Literal["red", "blue"]',
    'VERSION = "1"',
    'client = Client()',
    '',
  ].join('\n');
  const reached = (language: 'python' | 'typescript', sdk: string, object?: string) =>
    sdkNames(language, sdk, object).reaches.map((r) => [r.how, r.reaches, r.line]);

  it('reads the tools off the object the runtime binds, and only there', () => {
    expect(reached('typescript', typescript, 'codemode')).toEqual([
      ['method', 'lookup', 4],
      ['subscript', 'export-all', 5],
    ]);
    expect(reached('python', python, 'codemode')).toEqual([
      ['method', 'lookup', 3],
      ['subscript', 'export-all', 4],
    ]);
    expect(namingProblems('python', sdkNames('python', python, 'codemode'), all(['lookup', 'export-all']))).toEqual([]);
    // Read off `tools`, the same blocks offer nothing: their values are what a hint can name.
    expect(reached('typescript', typescript)).toEqual([]);
    expect(reached('python', python)).toEqual([]);
    // A helper function beside them is no tool: the block binds another object.
    expect(reached('python', `${python}def helper() -> None: ...\n`)).toEqual([]);
    expect(reached('typescript', `${typescript}declare function helper(): void;\n`)).toEqual([]);
    expect(sdkNames('typescript', typescript).bindings).toEqual(['codemode', 'version']);
    // Aliases and constants are no object a program calls tools on.
    expect(sdkNames('python', python).bindings).toEqual(['codemode', 'client']);
  });

  it('compares a Python object after NFKC, as the compiler stores names', () => {
    expect(reached('python', python.replaceAll('codemode:', 'ｃodemode:'), 'codemode')).toEqual([
      ['method', 'lookup', 3],
      ['subscript', 'export-all', 4],
    ]);
  });
});

describe('the reference renderers on the adversarial tool set', () => {
  const tools = adversarialTools();
  for (const language of ['python', 'typescript'] as const) {
    it(`${language}: unique names, every tool reachable exactly once`, () => {
      expect(
        namingProblems(
          language,
          sdkNames(language, renderSdk(language, tools, { pythonFloor: '3.9' })),
          all(tools.map((t) => t.name)),
        ),
      ).toEqual([]);
    });
  }
});

describe('the sdk-names check on a real run', () => {
  const session = new Session();
  afterAll(() => session.dispose());

  it('takes the registered tools from the runtime seam and passes the committed exotic names', {
    timeout: 120_000,
  }, async () => {
    const scenario = (await committedScenarios()).find((s) => s.name === 'exotic-names')!;
    const input = await runPair(scenario, 'typescript', session);
    expect(registeredTools(input.pair.record)).toEqual({
      names: ['2fa.verify', '__proto__', 'class', 'weather-alerts'],
      complete: true,
    });
    expect(await sdkNamesCheck.run(input)).toEqual([]);
    const extra = { ...input, view: { ...input.view, registered: all([...input.view.registered!.names, 'ghost']) } };
    expect(await sdkNamesCheck.run(extra)).toEqual([
      {
        check: 'sdk-names',
        severity: 'error',
        message: 'tools-sdk.ts: tool "ghost" is not reachable from the SDK: no method and no listed name reaches it',
      },
    ]);
    // A run that called no tool and was offered none beside run_code shows no registry: an SDK offering no tool is
    // not judged against tools the gate never saw.
    const unseen = {
      ...input.pair.record,
      programs: [],
      exchanges: input.pair.record.exchanges.map((e) => ({ ...e, request: { ...e.request, tools: [] } })),
    };
    expect(viewOfRecord(unseen).registered).toEqual({ names: [], complete: false });
    const empty = '```ts\ndeclare const tools: {};\n```\n';
    const bare = { ...input, view: { ...viewOfRecord(unseen), requests: [{ sdkSection: empty, tools: [] }] } };
    expect(await sdkNamesCheck.run(bare)).toEqual([]);
  });
});

describe('the names of a TypeScript SDK with a verdict cache', () => {
  const sdk = [
    'type AArgs = { q: string };',
    'declare const tools: {',
    '  a(args: AArgs): Promise<unknown>;',
    '  "a-b"(args: {}): Promise<unknown>;',
    '};',
    '',
  ].join('\n');
  let root = '';
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('are kept on the first reading and taken from there on the next; an entry that does not check out is read again', async () => {
    root = await mkdtemp(join(tmpdir(), 'concord-sdk-names-cache-'));
    const fresh = sdkNames('typescript', sdk);
    await using first = new Session({ cacheRoot: root });
    const kept = await readTypeScriptNames(sdk, first, 'tools');
    expect({ declared: kept.declared, reaches: kept.reaches }).toEqual({
      declared: fresh.declared,
      reaches: fresh.reaches,
    });
    expect(first.cache!.stats).toMatchObject({ hits: 0, misses: 1, stored: 1 });

    await using second = new Session({ cacheRoot: root });
    const again = await readTypeScriptNames(sdk, second, 'tools');
    expect(second.cache!.stats).toMatchObject({ hits: 1, misses: 0, stored: 0 });
    expect({ declared: again.declared, reaches: again.reaches }).toEqual({
      declared: fresh.declared,
      reaches: fresh.reaches,
    });
    expect(namingProblems('typescript', again, all(['a', 'a-b']))).toEqual([]);
    expect(again.normalize('ﬁ')).toBe('ﬁ');

    // The entry as written, its value now a reach without its line: not names concord wrote.
    const folder = join(root, '.concord', 'cache', 'sdk-names');
    const [shard] = await readdir(folder);
    const [file] = await readdir(join(folder, shard!));
    const entry = JSON.parse(await readFile(join(folder, shard!, file!), 'utf8')) as { value: unknown };
    entry.value = { declared: [], reaches: [{ spelled: 'a', how: 'method', reaches: 'a', column: 3 }] };
    await writeFile(join(folder, shard!, file!), JSON.stringify(entry));
    await using third = new Session({ cacheRoot: root });
    const reread = await readTypeScriptNames(sdk, third, 'tools');
    expect(third.cache!.stats).toMatchObject({ hits: 0, misses: 1, stored: 1 });
    expect(reread.reaches).toEqual(fresh.reaches);
  });

  it('are kept apart for each object the tools are read off', async () => {
    const cacheRoot = await mkdtemp(join(tmpdir(), 'concord-sdk-names-cache-'));
    try {
      await using session = new Session({ cacheRoot });
      expect((await readTypeScriptNames(sdk, session, 'tools')).reaches).toHaveLength(2);
      // The block read off `codemode` offers nothing: what was kept for `tools` does not answer it.
      const elsewhere = await readTypeScriptNames(sdk, session, 'codemode');
      expect(elsewhere.reaches).toEqual([]);
      expect(elsewhere.bindings).toEqual(['tools']);
      expect(session.cache!.stats).toMatchObject({ hits: 0, misses: 2, stored: 2 });
      await using next = new Session({ cacheRoot });
      expect((await readTypeScriptNames(sdk, next, 'codemode')).bindings).toEqual(['tools']);
      expect((await readTypeScriptNames(sdk, next, 'tools')).reaches).toHaveLength(2);
      expect(next.cache!.stats).toMatchObject({ hits: 2, misses: 0, stored: 0 });
    } finally {
      await rm(cacheRoot, { recursive: true, force: true });
    }
  });

  it('of a Python block are read without a compiler, so never kept', async () => {
    const cacheRoot = await mkdtemp(join(tmpdir(), 'concord-sdk-names-cache-'));
    try {
      await using session = new Session({ cacheRoot });
      await LANGUAGE_PACKS.python.readNames(
        'class Tools:\n    async def a(self, args: dict) -> dict: ...\n',
        session,
        'tools',
      );
      expect(session.cache!.stats).toMatchObject({ hits: 0, misses: 0, stored: 0 });
    } finally {
      await rm(cacheRoot, { recursive: true, force: true });
    }
  });
});
