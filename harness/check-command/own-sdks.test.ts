import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSdk, renderSdkSection, type ToolDefinition } from '../../codemode/index.js';
import { runCodeWireTool } from '../../codemode/run-code/wire-tool.js';
import { codeLikeTextArbitrary, validSchemaArbitrary } from '../../codemode/schema/test/arbitrary.js';
import { Session } from '../session.js';
import { type CheckOptions, type CheckResult, checkRequest, checkSdk } from './check.js';

// A correct SDK must pass: a finding on one teaches a team to ignore the gate. The reference backend's SDKs of
// random tools whose descriptions read like code, fences and Markdown are checked the three ways a team hands
// them over: the prompt section, the bare file `concord sdk --no-fence` writes, and a request body carrying the
// section in its system prompt beside the run_code function. Stubs run on the interpreters here, from the floor.

const FLOOR = '3.9';
const field = fc
  .tuple(validSchemaArbitrary(2), codeLikeTextArbitrary)
  .map(([schema, description]) =>
    typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? { ...schema, description } : schema,
  );
const toolSets: fc.Arbitrary<ToolDefinition[]> = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(/^[a-z][a-z0-9_-]{0,10}$/),
    description: codeLikeTextArbitrary,
    parameters: fc.record({
      type: fc.constant('object'),
      description: codeLikeTextArbitrary,
      properties: fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/), field, { maxKeys: 4 }),
    }),
  }),
  { selector: (tool) => tool.name, minLength: 1, maxLength: 5 },
);

const READINGS = {
  section: (language, tools, options) =>
    checkSdk(
      {
        section: renderSdkSection(language, tools, { pythonFloor: FLOOR }),
        language,
        runCode: runCodeWireTool(language),
      },
      options,
    ),
  'bare file': (language, tools, options) =>
    checkSdk(
      { section: renderSdk(language, tools, { pythonFloor: FLOOR }), language, runCode: runCodeWireTool(language) },
      options,
    ),
  request: (language, tools, options) =>
    checkRequest(
      {
        model: 'any',
        messages: [
          {
            role: 'system',
            content: `You answer with ${language} programs.\n\n${renderSdkSection(language, tools, { pythonFloor: FLOOR })}\n\nBe brief.`,
          },
          { role: 'user', content: 'Find the open orders.' },
        ],
        tools: [{ type: 'function', function: runCodeWireTool(language) }],
      },
      options,
    ),
} satisfies Record<
  string,
  (language: 'python' | 'typescript', tools: ToolDefinition[], options: CheckOptions) => Promise<CheckResult>
>;

const session = new Session({ pyodides: [] });
let root = '';
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'concord-own-sdks-'));
});
afterAll(async () => {
  await session.dispose();
  await rm(root, { recursive: true, force: true });
});

describe("concord's checks on the reference backend's SDKs of tools described in code-like text", () => {
  for (const language of ['python', 'typescript'] as const)
    for (const [reading, check] of Object.entries(READINGS))
      it(`find nothing wrong in a ${language} SDK read as a ${reading}`, { timeout: 300_000 }, async () => {
        await fc.assert(
          fc.asyncProperty(toolSets, async (tools) => {
            const options = { root, session, floor: FLOOR, tools: tools.map((tool) => tool.name) };
            const result = await check(language, tools, options);
            expect(result.lines.filter((line) => !line.startsWith('note '))).toEqual([]);
          }),
          { numRuns: 40, seed: 20_261_206 },
        );
      });
});
