import { afterAll, describe, expect, it } from 'vitest';
import { RUN_CODE_TEXT } from '../../../codemode/run-code/descriptions.js';
import { renderSdkSection } from '../../../codemode/run-code/sdk-section.js';
import { runCodeWireTool } from '../../../codemode/run-code/wire-tool.js';
import type { ToolDefinition } from '../../../codemode/tools/types.js';
import type { Language } from '../../../runtimes/seam/types.js';
import { Session } from '../../session.js';
import type { RunRecord } from '../../snapshot/transcript.js';
import { committedScenarios, runPair, withToolsConfig } from '../test/run-pair.js';
import type { CheckInput } from '../types.js';
import { viewOfRecord } from '../view-of-record.js';
import { languageAgreementCheck, languageProblems } from './check.js';

const session = new Session();
afterAll(() => session.dispose());

const messagesOf = async (input: CheckInput) => (await languageAgreementCheck.run(input)).map((f) => f.message);

/** A record holding one request with the given surfaces, for the detectors alone. */
function recordWith(language: Language, sdkSection: string, runCode = runCodeWireTool(language)): CheckInput {
  const record: RunRecord = {
    scenario: 'surfaces',
    runtime: language === 'python' ? 'python' : 'typescript',
    language,
    isolation: 'process',
    entries: [],
    exchanges: [{ request: { system: [{ id: 'tools:sdk', text: sdkSection }], tools: [runCode], messages: [] } }],
    programs: [],
  };
  return { view: viewOfRecord(record) } as CheckInput;
}

// Descriptions that talk about the other language must not count: they are the tool authors' words.
const TOOLS: ToolDefinition[] = [
  {
    name: 'lint',
    description:
      'Lints a TypeScript file: `const x: number = 1;` and console.log(x) => fine. Returns None of the Python errors.',
    parameters: {
      type: 'object',
      properties: { path: { type: 'string', description: 'print(path) or Promise<string>' } },
      required: ['path'],
    },
    output: { type: 'object', properties: { level: { enum: ['async def', 'undefined;'] } } },
  },
];

describe('language agreement on real compositions', () => {
  it('passes on every committed scenario, on typescript and python', { timeout: 240_000 }, async () => {
    for (const scenario of await committedScenarios()) {
      for (const runtime of ['typescript', 'python'] as const) {
        expect([scenario.name, runtime, await messagesOf(await runPair(scenario, runtime, session))]).toEqual([
          scenario.name,
          runtime,
          [],
        ]);
      }
    }
  });

  it('fails a python runtime whose run_code flavor entry was left in TypeScript', { timeout: 120_000 }, async () => {
    const nested = (await committedScenarios()).find((s) => s.name === 'nested-reads')!;
    const wrong = withToolsConfig(nested, (config) => ({
      ...config,
      runCodeText: { python: RUN_CODE_TEXT.typescript },
    }));
    const messages = await messagesOf(await runPair(wrong, 'python', session));
    expect(messages).toHaveLength(4);
    expect(messages[0]).toBe('the run_code description on the python runtime (Python) never names Python');
    expect(messages[1]).toMatch(
      /^the run_code description on the python runtime \(Python\) speaks TypeScript: the name TypeScript\/JavaScript \("TypeScript"\), .*`console\.` \("console\.log"\).*; expected Python only$/,
    );
    expect(messages[2]).toBe(
      'the run_code `code` parameter description on the python runtime (Python) never names Python',
    );
    expect(messages[3]).toMatch(
      /^the run_code `code` parameter description on the python runtime \(Python\) speaks TypeScript: the name TypeScript\/JavaScript/,
    );
  });
});

describe('language agreement detectors', () => {
  it.each(['python', 'typescript'] as const)(
    'pass the %s SDK even when tool descriptions speak the other language',
    async (language) => {
      expect(await messagesOf(recordWith(language, renderSdkSection(language, TOOLS)))).toEqual([]);
    },
  );

  it('fail a fence that names the other language', async () => {
    const section = renderSdkSection('python', TOOLS).replace(/^```python/, '```typescript');
    expect(await messagesOf(recordWith('python', section))).toEqual([
      'the tools:sdk fence on the python runtime (Python) says "typescript"; expected "python" or "py"',
    ]);
  });

  it.each(['python', 'typescript'] as const)(
    'pass %s prose around the block that speaks the runtime language',
    async (language) => {
      const prose = {
        python:
          '## Writing code for run_code\nCall a tool with `await tools.lint({"path": p})`; catch failures with `except ToolCallError as error:` and read `error.tool_name`.\n\n',
        typescript:
          '## Writing code for run_code\nCall a tool with `await tools.lint({ path })`; a failed call throws a `ToolCallError` with `toolName`.\n\n',
      }[language];
      const section =
        prose +
        renderSdkSection(language, TOOLS).replace(
          /^```python|^```typescript/,
          language === 'python' ? '```py' : '```ts',
        ) +
        '\nThat is all.\n';
      expect(await messagesOf(recordWith(language, section))).toEqual([]);
    },
  );

  it('fail prose around a python block that speaks TypeScript, naming the words', async () => {
    const section =
      'Call tools as `const city = await tools.lint({ path });` and log with console.log(city).\n' +
      renderSdkSection('python', TOOLS) +
      '\nErrors are thrown; use catch (error) => {}.';
    expect(await messagesOf(recordWith('python', section))).toEqual([
      'the tools:sdk prose around the block on the python runtime (Python) speaks TypeScript: a `tools` call ended by `;` ("await tools.lint({ path });"), `console.` ("console.log"), a `const`/`let`/`var` declaration ("const city ="), an arrow `=>` ("(error) =>"), `catch (` ("catch ("); expected Python only',
    ]);
  });

  it('fail prose around a typescript block that names Python and shows its idioms', async () => {
    const section = 'Write Python: `async def main():` then print(x).\n' + renderSdkSection('typescript', TOOLS);
    expect(await messagesOf(recordWith('typescript', section))).toEqual([
      'the tools:sdk prose around the block on the typescript runtime (TypeScript) speaks Python: the name Python/CPython/Pyodide ("Python"), `async def` ("async def"), a `def` statement ("def main("), `print(` ("print("); expected TypeScript only',
    ]);
  });

  it('fail a section with no SDK block or two, naming the fences found', async () => {
    const block = renderSdkSection('python', TOOLS);
    expect(await messagesOf(recordWith('python', 'Stubs follow.\n' + block.replace(/^```python/, '```')))).toEqual([
      'the tools:sdk section on the python runtime (Python) has no fenced code block whose info string names its language (python/py/typescript/ts); fences found: line 2: ``` (no info string), so its language cannot be read',
    ]);
    expect(
      await messagesOf(recordWith('python', 'Example:\n```py\nawait tools.lint({"path": "a"})\n```\n' + block)),
    ).toEqual([
      'the tools:sdk section on the python runtime (Python) has 2 fenced code blocks that name a language, where the SDK must be exactly one; fences found: line 2: ```py; line 5: ```python, so its language cannot be read',
    ]);
  });

  it('fail TypeScript declarations under a python fence', async () => {
    const section = renderSdkSection('typescript', TOOLS).replace(/^```typescript/, '```python');
    expect(await messagesOf(recordWith('python', section))).toEqual([
      'the tools:sdk declarations on the python runtime (Python) speaks TypeScript: braces or semicolons (";"), an arrow `=>` ("=>"), `Promise<` ("Promise<"), a `declare` statement ("declare class"); expected Python only',
    ]);
  });

  it('fail Python stubs under a typescript fence', async () => {
    const section = renderSdkSection('python', TOOLS).replace(/^```python/, '```typescript');
    expect(await messagesOf(recordWith('typescript', section))).toEqual([
      expect.stringMatching(
        /^the tools:sdk declarations on the typescript runtime \(TypeScript\) speaks Python: a `class X\(` statement \("class LintArgs\("\), `async def`/,
      ),
    ]);
  });

  it('fail a usage header that speaks the other language', async () => {
    const section = renderSdkSection('python', TOOLS).replace(
      '\n',
      '\n# Log with console.log(value) and await tools.lint({ path });\n',
    );
    expect(await messagesOf(recordWith('python', section))).toEqual([
      'the tools:sdk usage header on the python runtime (Python) speaks TypeScript: a `tools` call ended by `;` ("await tools.lint({ path });"), `console.` ("console.log"); expected Python only',
    ]);
  });

  it('fail Python words in a typescript run_code description', async () => {
    const text = { ...RUN_CODE_TEXT.typescript, code: 'TypeScript body; print(value) when done, return None.' };
    const messages = await messagesOf(
      recordWith(
        'typescript',
        renderSdkSection('typescript', TOOLS),
        runCodeWireTool('typescript', { typescript: text }),
      ),
    );
    expect(messages).toEqual([
      'the run_code `code` parameter description on the typescript runtime (TypeScript) speaks Python: `print(` ("print("), `None` ("None"); expected TypeScript only',
    ]);
  });
});

/** The problems `languageProblems` finds: an error as its message, a note after `note: `. */
const problemsOf = (...args: Parameters<typeof languageProblems>) =>
  languageProblems(...args).map(({ severity, message }) => (severity === 'error' ? message : `note: ${message}`));

describe('the description of a code tool of another name', () => {
  const tool = (description: string, code: string) => ({
    name: 'codemode',
    description,
    parameters: { type: 'object', properties: { code: { type: 'string', description: code } } },
  });

  it('names JavaScript rightly for the TypeScript family, and is judged under its own name', () => {
    const javascript = tool('Write an async arrow function in JavaScript.', 'A JavaScript arrow function.');
    expect(problemsOf({ runCode: javascript }, 'typescript', 'in body.json')).toEqual([]);
    expect(problemsOf({ runCode: tool('Write a program.', 'The program.') }, 'typescript', 'in body.json')).toEqual([
      'the codemode description in body.json (TypeScript) never names TypeScript or JavaScript',
      'the codemode `code` parameter description in body.json (TypeScript) never names TypeScript or JavaScript',
    ]);
    // JavaScript names no Python: a Python runtime told to write it is told the wrong language.
    expect(problemsOf({ runCode: javascript }, 'python', 'in body.json')).toEqual([
      'the codemode description in body.json (Python) never names Python',
      'the codemode description in body.json (Python) speaks TypeScript: the name TypeScript/JavaScript ("JavaScript"); expected Python only',
      'the codemode `code` parameter description in body.json (Python) never names Python',
      'the codemode `code` parameter description in body.json (Python) speaks TypeScript: the name TypeScript/JavaScript ("JavaScript"); expected Python only',
    ]);
    // Met apart from the SDK, the tool is named at its own place.
    expect(
      problemsOf(
        { runCode: tool('Write a program.', 'An async arrow function in JavaScript.') },
        'typescript',
        'in body.json $.system',
        'in body.json $.tools[2]',
      ),
    ).toEqual([
      'note: the codemode description in body.json $.tools[2] (TypeScript) never names TypeScript or JavaScript: the model is told the language by its `code` parameter alone',
    ]);
  });

  it('notes a `code` parameter that does not say the language when the tool says it, and fails it when neither does', () => {
    const python = tool('Runs a Python program in a sandbox.', 'The program to run.');
    expect(problemsOf({ runCode: python }, 'python', 'in body.json')).toEqual([
      'note: the codemode `code` parameter description in body.json (Python) never names Python: the model is told the language by the codemode description alone',
    ]);
    const undescribed = { ...python, parameters: { type: 'object', properties: { code: { type: 'string' } } } };
    expect(problemsOf({ runCode: undescribed }, 'python', 'in body.json')).toEqual([
      'note: the codemode `code` parameter description in body.json (Python) is missing: the model is told the language by the codemode description alone',
    ]);
    // Speaking the other language is wrong whatever the tool says.
    expect(
      problemsOf({ runCode: tool(python.description, 'A JavaScript function.') }, 'python', 'in body.json'),
    ).toEqual([
      'note: the codemode `code` parameter description in body.json (Python) never names Python: the model is told the language by the codemode description alone',
      'the codemode `code` parameter description in body.json (Python) speaks TypeScript: the name TypeScript/JavaScript ("JavaScript"); expected Python only',
    ]);
    // Neither says it, or there is no `code` parameter to send the program in: errors.
    expect(
      problemsOf({ runCode: { ...undescribed, description: 'Runs a program.' } }, 'python', 'in body.json'),
    ).toEqual([
      'the codemode description in body.json (Python) never names Python',
      'the codemode `code` parameter description in body.json (Python) is missing',
    ]);
    expect(problemsOf({ runCode: { ...python, parameters: { type: 'object' } } }, 'python', 'in body.json')).toEqual([
      'the codemode `code` parameter description in body.json (Python) is missing',
    ]);
  });

  it('passes a language named only to rule it out, and does not take that for naming the language', () => {
    const python = tool('Runs a Python program (not JavaScript) in a sandbox.', 'Python source. Never TypeScript.');
    expect(problemsOf({ runCode: python }, 'python', 'in body.json')).toEqual([]);
    const section = [
      'You write Python programs.',
      '',
      '```python',
      'class Tools:',
      '    async def lookup(self, args: dict) -> dict: ...',
      '',
      '',
      'tools: Tools',
      '```',
      '',
      'Write Python, never JavaScript or TypeScript: the runtime is CPython.',
    ].join('\n');
    expect(problemsOf({ section, runCode: python }, 'python', 'in body.json')).toEqual([]);
    // A Python runtime's tool that names Python only to rule it out never says to write it.
    expect(
      problemsOf({ runCode: tool('Runs a program, not Python.', 'No Python.') }, 'python', 'in body.json'),
    ).toEqual([
      'the codemode description in body.json (Python) never names Python',
      'the codemode `code` parameter description in body.json (Python) never names Python',
    ]);
  });
});
