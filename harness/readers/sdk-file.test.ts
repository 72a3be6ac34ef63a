import { describe, expect, it } from 'vitest';
import { readSdkSection } from '../../contract/sdk-section.js';
import type { Language } from '../../runtimes/seam/types.js';
import type { ShownFunction } from './model-view.js';
import { codeFileLanguage, codeToolFile, sdkFileView } from './sdk-file.js';
import { blockOf, noneOf, RUN_CODE, refusal, SECTION, STUBS, subjectOf, viewsOf } from './test/read.js';

/** The one view an SDK file shows, as a subject; `runCode` offered beside it from rc.json. */
const sdkFileSubject = (text: string, file: string, language?: Language, runCode?: ShownFunction) =>
  subjectOf(
    viewsOf(
      sdkFileView(text, file, {
        language,
        ...(runCode === undefined ? {} : { wire: [{ place: 'rc.json', tool: runCode }] }),
      }),
    )[0]!,
  );

describe('an SDK file and the code tool beside it', () => {
  it('takes a section, or the bare code of a block', () => {
    expect(sdkFileSubject(SECTION, 'sdk.md', 'python').section).toBe(SECTION);
    const bare = sdkFileSubject('declare const tools: { a(): Promise<void> };', 'tools-sdk.ts', 'typescript');
    expect(bare.section).toBe('```typescript\ndeclare const tools: { a(): Promise<void> };\n```\n');
    // A section whose declarations stand in two fences beside an example is read as a request's would be.
    const split = sdkFileSubject(
      '```py\nawait a()\n```\n```py\nclass A(TypedDict):\n    x: int\n```\n```py\nasync def a() -> A: ...\n```\n',
      'sdk.md',
      'python',
    );
    expect(split.source).toBe('sdk.md (the declarations of its fences at lines 4 and 8, joined)');
    expect(readSdkSection(split.section).block?.body).toBe(
      'class A(TypedDict):\n    x: int\n\n\nasync def a() -> A: ...\n',
    );
  });

  it('reads bare code whose doc comments hold fences (a description with an example) as bare code', () => {
    // A TypeScript description indented two spaces: its fences are fences to Markdown, and one of them names `ts`.
    const typescript = [
      'type FetchArgs = { url: string };',
      'declare const tools: {',
      '  /** Fetch a page.',
      '  ```json',
      '  {"url": "https://example.org"}',
      '  ```',
      '  ```ts',
      '  await tools.fetch({ url })',
      '  ```',
      '  */',
      '  fetch(args: FetchArgs): Promise<string>;',
      '};',
      '',
    ].join('\n');
    for (const file of ['sdk.ts', 'sdk.txt', 'the SDK']) {
      const subject = sdkFileSubject(typescript, file, 'typescript');
      expect([subject.source, blockOf(subject)]).toEqual([file, typescript]);
    }
    // A module docstring at the left margin: its fences, even one naming python, are no SDK block.
    const python =
      '"""Stubs.\n\n```python\nawait tools.fetch({"url": u})\n```\n"""\nclass Tools:\n    async def fetch(self, args: dict) -> str: ...\n\ntools: Tools\n';
    expect(blockOf(sdkFileSubject(python, 'stubs', 'python'))).toBe(python);
    // Named as code, a file is its bare code even where it does not parse (the checks then say where it breaks).
    const broken = typescript.replace('url: string', 'url: string,,').replace(/ {2}```ts\n.*\n {2}```\n/, '');
    expect(blockOf(sdkFileSubject(broken, 'tools.d.ts', 'typescript'))).toBe(broken);
    expect(refusal(() => sdkFileSubject(broken, 'tools.txt', 'typescript'))).toMatch(
      /^tools\.txt: the text holds TypeScript declarations at lines \d+-\d+ that do not parse/,
    );
    // A section is still a section: prose, or a block alone, never reads as declarations.
    expect(sdkFileSubject(SECTION, 'sdk.md', 'python').section).toBe(SECTION);
    const alone = '```ts\ndeclare const tools: { a(): Promise<void> };\n```\n';
    expect(sdkFileSubject(alone, 'sdk.md', 'typescript').section).toBe(alone);
  });

  it("knows a code file's language by its name, and a text's by the block that declares", () => {
    expect(
      ['sdk.py', 'sdk.pyi', 'SDK.PY', 'tools.d.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.md'].map(codeFileLanguage),
    ).toEqual(['python', 'python', 'python', 'typescript', 'typescript', 'typescript', undefined, undefined]);
    expect(sdkFileSubject(SECTION, 'sdk.md').language).toBe('python');
    const typescript = 'Types:\n```ts\ntype A = 1;\n```\nTools:\n```typescript\ndeclare const tools: {};\n```\n';
    expect(sdkFileSubject(typescript, 'sdk.md').language).toBe('typescript');
    // Bare declarations in a text name their language by parsing as it, and only as it.
    expect(sdkFileSubject('declare const tools: { a(): Promise<void> };', 'sdk.txt').language).toBe('typescript');
    expect(sdkFileSubject(STUBS, 'sdk.txt').language).toBe('python');
    // The language given is the runtime's: an SDK in another is judged in it (and the language check says so).
    expect(sdkFileSubject(SECTION, 'sdk.md', 'typescript').language).toBe('typescript');
  });

  it('reads no SDK in prose, example programs or fences of another language, whatever --language says', () => {
    const prose = 'You are a helpful assistant.\nAnswer in English; be brief.\n';
    for (const language of [undefined, 'python', 'typescript'] as const)
      expect(noneOf(sdkFileView(prose, 'prompt.md', { language }))).toBe('no code block');
    expect(noneOf(sdkFileView('Ex:\n```ts\nx\n```\n```python\ny\n```\n', 'sdk.md'))).toBe(
      'its code blocks are example programs: none declares a tool',
    );
    expect(noneOf(sdkFileView('Prose.\n```\nan example\n```\n', 'sdk.md', { language: 'python' }))).toBe(
      'its code blocks name no language concord reads (python, py, typescript, ts)',
    );
    // Found in a folder, a file of code that runs is no SDK; named, it is read as one.
    expect(noneOf(sdkFileView('print(1)\n', 'helper.py', { found: true }))).toBe(
      'Python code that runs, not declarations',
    );
    expect(sdkFileSubject('print(1)\n', 'helper.py').section).toBe('```python\nprint(1)\n```\n');
  });

  it('takes the code tool from a function or a tools file, and refuses a file where no function runs programs', () => {
    expect(refusal(() => codeToolFile('{"name": "other", "parameters": {}}', 'rc.json'))).toMatch(
      /^rc\.json: no function here runs programs: "other" takes no `code` string\n {2}hint: give the function that runs/,
    );
    expect(codeToolFile(JSON.stringify(RUN_CODE), 'rc.json')).toMatchObject([
      { place: 'rc.json $', tool: { name: 'run_code' } },
    ]);
    expect(codeToolFile(`\uFEFF${JSON.stringify(RUN_CODE)}`, 'rc.json')[0]!.tool.name).toBe('run_code');
    // A tools file, as a suite keeps one: the code tool among native tools.
    const listed = JSON.stringify({ initial: [{ name: 'note', parameters: {} }, RUN_CODE.function], changes: [] });
    expect(codeToolFile(listed, 'tools.json').map(({ place, tool }) => [place, tool.name])).toEqual([
      ['tools.json $.initial[0]', 'note'],
      ['tools.json $.initial[1]', 'run_code'],
    ]);
    const subject = sdkFileSubject(SECTION, 'sdk.md', undefined, RUN_CODE.function);
    expect([subject.runCode?.name, subject.runCodeSource]).toEqual(['run_code', 'rc.json']);
  });

  it('takes a function of another name when the backend names its code tool so, and says how when it does not', () => {
    const codemode = '{"name": "codemode", "description": "Runs JavaScript."}';
    expect(codeToolFile(codemode, 'rc.json', ['codemode'])[0]!.tool).toMatchObject({ name: 'codemode' });
    expect(refusal(() => codeToolFile(codemode, 'rc.json'))).toMatch(
      /^rc\.json: no function here runs programs: "codemode" takes no `code` string\n {2}hint: .*--code-tool NAME/,
    );
    expect(refusal(() => codeToolFile(JSON.stringify(RUN_CODE), 'rc.json', ['codemode']))).toMatch(
      /^rc\.json: the request has no function named "codemode"; its functions are "run_code"/,
    );
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads a file written with %s line endings as one written with LF', (_, ending) => {
    const lines = (text: string) => text.replaceAll('\n', ending);
    expect(blockOf(sdkFileSubject(lines(SECTION), 'sdk.md', 'python'))).toBe(STUBS);
    expect(blockOf(sdkFileSubject(lines(STUBS), 'sdk.py', 'python'))).toBe(STUBS);
    expect(sdkFileSubject(`\uFEFF${SECTION}`, 'sdk.md', 'python').section).toBe(SECTION);
  });
});

describe('texts that parse as code but are no SDK', () => {
  it('a settings file of names and values declares nothing a program calls', () => {
    for (const text of ['mode=DEBUG\n', 'color: blue\nsize: 3\n', 'tools: Tools\n'])
      expect(noneOf(sdkFileView(text, 'workspace/settings.txt')), text).toBe('no code block');
  });
});
