import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../session.js';
import { checkViews } from './check.js';
import { type CheckInputs, type InputsRead, readCheckInputs } from './inputs.js';

// Material in each shape real Code Mode backends keep, written for these tests: see test/material/.
const MATERIAL = join(import.meta.dirname, 'test', 'material');
const shown = (file: string) => relative(MATERIAL, file);

const session = new Session({ pyodides: [] });
let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-material-'));
});
afterAll(async () => {
  await session.dispose();
  await rm(root, { recursive: true, force: true });
});

const read = (sdks: string[], options: Partial<CheckInputs> = {}) =>
  readCheckInputs({ requests: [], sdks: sdks.map((path) => join(MATERIAL, path)), shown, ...options });

/** The error findings of each view, by its source; notes as `note: …`. */
async function verdicts(got: InputsRead, toolsObject?: string) {
  const out: Record<string, string[]> = {};
  await checkViews(got.views, { root, session, ...(toolsObject === undefined ? {} : { toolsObject }) }, (view, r) => {
    out[view.source] = r.findings.map((f) => `${f.severity === 'note' ? 'note ' : ''}${f.check}: ${f.message}`);
  });
  return out;
}

describe('material as real backends keep it', () => {
  it('a code tool beside native tools: the natives need no way in from the SDK', async () => {
    const got = await read(['native-beside-code']);
    expect(got.views.map((view) => [view.source, view.codeTools])).toEqual([
      ['native-beside-code/call-options.json $.tools[0].description', ['codemode']],
    ]);
    expect(await verdicts(got, 'codemode')).toEqual({
      'native-beside-code/call-options.json $.tools[0].description': [],
    });
  });

  it('two code tools in an MCP tools/list result: each judged with its own SDK, its `code` parameter naming the language', async () => {
    const got = await read(['two-code-tools']);
    expect(got.views.map((view) => [view.source, view.codeTools])).toEqual([
      ['two-code-tools/tools-bare.json $.tools[0].description', ['search']],
      ['two-code-tools/tools-bare.json $.tools[1].description', ['execute']],
      ['two-code-tools/tools-list.json $.result.tools[0].description', ['search']],
      ['two-code-tools/tools-list.json $.result.tools[1].description', ['execute']],
    ]);
    const found = await verdicts(got, 'api');
    for (const [source, findings] of Object.entries(found))
      expect(findings, source).toEqual([
        expect.stringMatching(
          /^note language-agreement: the (?:search|execute) description in two-code-tools\/\S+ \$[.a-z[\]0-9]+ \(TypeScript\) never names TypeScript or JavaScript: the model is told the language by its `code` parameter alone$/,
        ),
      ]);
  });

  it("a code agent's tag blocks and stop words: the stubs read; JSON type names fail to execute, Python's pass", async () => {
    const got = await read(['code-agent']);
    expect(got.views.map((view) => view.source)).toEqual([
      'code-agent/json-type-names.md',
      'code-agent/python-types.md',
      'code-agent/stop-word.md (the declarations of its fence at line 11)',
    ]);
    const found = await verdicts(got);
    expect(found['code-agent/python-types.md']).toEqual([]);
    expect(found['code-agent/stop-word.md (the declarations of its fence at line 11)']).toEqual([]);
    // Annotations are evaluated when a function is defined: `string` is no name Python has.
    expect(found['code-agent/json-type-names.md']!.filter((f) => !f.startsWith('note '))).toEqual([
      expect.stringMatching(
        /^stub-import: the SDK block of code-agent\/json-type-names\.md compiles and imports nothing .* but fails when executed as a module on .*: NameError at line 1, column 20: name 'string' is not defined\n/,
      ),
    ]);
  });

  it("a module catalog in tags: imports from the sandbox's tools package are no collision, and import", async () => {
    const got = await read(['module-catalog']);
    expect(await verdicts(got)).toEqual({ 'module-catalog/prompt.md': [] });
  });

  it('interfaces that declare their functions only in comments offer no tool', async () => {
    const found = await verdicts(await read(['comments-only']));
    expect(found['comments-only/prompt.md']).toEqual([
      expect.stringMatching(/^sdk-names: the SDK block of comments-only\/prompt\.md offers no tool/),
    ]);
  });

  it("a suite's snapshot folders: each prompt with the tools file beside it is one request; the rest is counted", async () => {
    const got = await read(['suite-layout']);
    expect(got.views.map((view) => [view.source, view.codeTools, view.requests[0]!.tools.length])).toEqual([
      ['suite-layout/keep-a-note/system-prompt.expected.md', ['run_code'], 2],
      ['suite-layout/python-lane/system-prompt.expected.md', ['run_code'], 1],
    ]);
    expect(got.noSdk).toEqual([{ file: 'suite-layout/say-hello/system-prompt.expected.md', why: 'no code block' }]);
    expect(got.notRead.map(({ file, what }) => `${file}: ${what}`)).toEqual([
      'suite-layout/keep-a-note/session.jsonl: a .jsonl file',
      'suite-layout/keep-a-note/stdout.expected.jsonl: a .jsonl file',
      'suite-layout/keep-a-note/input.json: JSON that is neither a chat request body nor a list of tools',
      'suite-layout/say-hello/input.json: JSON that is neither a chat request body nor a list of tools',
    ]);
    const found = await verdicts({ ...got, views: got.views.slice(0, 1) });
    expect(found).toEqual({ 'suite-layout/keep-a-note/system-prompt.expected.md': [] });
    // A tools file alone, as --run-code gives it: the code tool among the natives.
    const withTools = await read(['suite-layout/keep-a-note/system-prompt.expected.md'], {
      runCode: join(MATERIAL, 'suite-layout/keep-a-note/tool-schemas.expected.json'),
    });
    expect(withTools.views[0]!.toolPlaces?.get('run_code')).toBe(
      'in suite-layout/keep-a-note/tool-schemas.expected.json $.initial[1]',
    );
  });

  it("a snapshot file of a code tool's description and of the tool itself", async () => {
    const got = await read(['snap-descriptions']);
    const file = 'snap-descriptions/__snapshots__/codemode-tool.test.ts.snap';
    expect(got.views.map((view) => view.source)).toEqual([
      `${file} "describes the code tool 1"`,
      `${file} "offers the code tool 1" $.description`,
    ]);
    expect(Object.values(await verdicts(got, 'codemode'))).toEqual([[], []]);
  });

  it('a folder of 20 prompts, 4 of them Code Mode: 4 verdicts, and the 16 others counted as no SDK', async () => {
    const got = await read(['twenty-prompts']);
    expect(got.views.map((view) => view.source)).toEqual([
      'twenty-prompts/17-notes-python.md',
      'twenty-prompts/18-weather-python.md',
      'twenty-prompts/19-ledger-typescript.md',
      'twenty-prompts/20-parcels-typescript.txt',
    ]);
    expect([got.noSdk.length, got.notRead]).toEqual([16, []]);
    expect(Object.values(await verdicts(got)).flat()).toEqual([]);
  });
});
