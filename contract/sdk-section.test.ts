import { describe, expect, it } from 'vitest';
import { fencedBlock, readSdkSection } from './sdk-section.js';

const STUBS = 'from typing import TypedDict\n\n\nclass Tools:\n    pass\n';

describe('reading a tools:sdk section', () => {
  it('takes a section that is only the fence as the block, with no prose', () => {
    const read = readSdkSection('```python\n' + STUBS + '```');
    expect(read.problem).toBeUndefined();
    expect(read.block).toMatchObject({
      language: 'python',
      info: 'python',
      body: STUBS,
      before: '',
      after: '',
      line: 1,
      opening: '```python',
      closing: '```',
    });
  });

  it('keeps the prose before and after the block exactly, so the section can be rebuilt', () => {
    const before = '## Writing code for run_code\n\nCall a tool with `await tools.name({...})`.\n\n';
    const after = '\nA failed call raises `ToolCallError`.\n';
    const text = before + '```py\n' + STUBS + '```\n' + after;
    const { block } = readSdkSection(text);
    expect(block).toMatchObject({ language: 'python', info: 'py', before, after, line: 5, body: STUBS });
    expect(block!.before + block!.opening + '\n' + block!.body + block!.closing + '\n' + block!.after).toBe(text);
  });

  it.each([
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('reads a section written with %s line endings as with LF, its prose kept exactly', (_, ending) => {
    const before = 'Call the tools.\n\n';
    const after = '\nThat is all.\n';
    const text = `${before}\`\`\`python\n${STUBS}\`\`\`\n${after}`.replaceAll('\n', ending);
    const read = readSdkSection(text);
    expect(read.problem).toBeUndefined();
    expect(read.block).toMatchObject({
      line: 3,
      opening: '```python',
      closing: '```',
      body: STUBS,
      before: before.replaceAll('\n', ending),
      after: after.replaceAll('\n', ending),
    });
  });

  it.each([
    ['typescript', 'typescript'],
    ['ts', 'typescript'],
    ['TS title="sdk.d.ts"', 'typescript'],
    ['Python', 'python'],
  ] as const)('reads the info string %j as %s', (info, language) => {
    expect(readSdkSection('```' + info + '\ndeclare const tools: Tools;\n```').block?.language).toBe(language);
  });

  it('leaves fences in other languages to the prose', () => {
    const text = 'An answer looks like this:\n```json\n{"ok": true}\n```\n\n~~~~python\n' + STUBS + '~~~~\n';
    const read = readSdkSection(text);
    expect(read.fences.map((f) => f.info)).toEqual(['json', 'python']);
    expect(read.block).toMatchObject({
      line: 6,
      opening: '~~~~python',
      closing: '~~~~',
      body: STUBS,
      before: text.slice(0, text.indexOf('~~~~')),
      after: '',
    });
  });

  it('ends a block at a closing fence followed by a stop marker, as code agents write `<end_code>`', () => {
    const text =
      'Answer like this:\n```py\ntotal = 2 + 2\nsay(total)\n```<end_code>\nYour functions:\n```python\n' +
      STUBS +
      '```\n';
    const read = readSdkSection(text);
    expect(read.fences.map((f) => [f.line, f.info, f.closing])).toEqual([
      [2, 'py', '```<end_code>'],
      [7, 'python', '```'],
    ]);
    expect(read.fences[0]!.body).toBe('total = 2 + 2\nsay(total)\n');
    // Anything else after the backticks is no closing fence: the block runs on.
    expect(readSdkSection('```python\nx = 1\n```end\ny = 2\n```\n').block?.body).toBe('x = 1\n```end\ny = 2\n');
  });

  it('takes a longer closing fence, and a shorter one as code', () => {
    const read = readSdkSection('````python\nx = """\n```\n"""\n`````\n');
    expect(read.block?.body).toBe('x = """\n```\n"""\n');
  });

  it('strips the opening fence indentation from the code, as Markdown does', () => {
    expect(readSdkSection('  ```python\n  class A:\n      pass\n  ```').block?.body).toBe('class A:\n    pass\n');
  });

  it('names the section problem and every fence found when no fence names a language', () => {
    expect(readSdkSection('Tools:\n```\nclass A: ...\n```\n```json\n{}\n```').problem).toBe(
      'has no fenced code block whose info string names its language (python/py/typescript/ts); fences found: line 2: ``` (no info string); line 5: ```json',
    );
    expect(readSdkSection('just prose, `tools.x()` inline').problem).toBe(
      'has no fenced code block whose info string names its language (python/py/typescript/ts); no fences',
    );
  });

  it('refuses two SDK blocks, naming both', () => {
    const read = readSdkSection('Example:\n```python\nawait tools.a({})\n```\nStubs:\n```python\n' + STUBS + '```');
    expect(read.block).toBeUndefined();
    expect(read.problem).toBe(
      'has 2 fenced code blocks that name a language, where the SDK must be exactly one; fences found: line 2: ```python; line 6: ```python',
    );
  });

  it('refuses an SDK block that is never closed', () => {
    expect(readSdkSection('Stubs:\n```python\n' + STUBS).problem).toBe(
      'has an SDK block that is never closed; fences found: line 2: ```python (never closed)',
    );
  });

  it('does not take inline code with backticks in its info string as a fence', () => {
    expect(readSdkSection('```not `a` fence```\n```ts\nlet x = 1;\n```').block?.line).toBe(2);
  });
});

describe('fencing a block', () => {
  it('writes a fence no backtick run inside the text can close, which reads back as the text', () => {
    expect(fencedBlock('a = 1', 'python')).toBe('```python\na = 1\n```');
    expect(fencedBlock('a = 1\n', 'python')).toBe('```python\na = 1\n```');
    // A description's own fence, indented as a doc comment indents it, would close a fence of three.
    const code = 'declare const tools: {\n  /** Example:\n  ```json\n  {}\n  ```\n  */\n  a(): Promise<void>;\n};\n';
    const section = fencedBlock(code, 'ts');
    expect(section.split('\n')[0]).toBe('````ts');
    expect(readSdkSection(section).block?.body).toBe(code);
    expect(fencedBlock('`x` and ``y`` and `````z`````', 'text').startsWith('``````text\n')).toBe(true);
  });
});
