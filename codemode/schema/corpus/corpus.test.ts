import { describe, expect, it } from 'vitest';
import { renderPythonSdk } from '../../sdk/python/index.js';
import { renderTypeScriptSdk } from '../../sdk/typescript/index.js';
import { diagnose } from '../../sdk/typescript/test/compile.js';
import type { ToolDefinition } from '../../tools/types.js';
import { lowerSchema } from '../lower.js';
import { isStructured, loadCorpus } from './load.js';

const corpus = loadCorpus();
const allTools = corpus.flatMap((source) => source.tools);

/** The roots of a tool with a structure, and whether each renders to a real type (not Any / unknown). */
function typedRoots(tool: ToolDefinition) {
  const python = renderPythonSdk([tool]);
  const typescript = renderTypeScriptSdk([tool]);
  const roots = [{ role: 'parameters', schema: tool.parameters, suffix: 'Args' }];
  if (tool.output !== undefined) roots.push({ role: 'output', schema: tool.output, suffix: 'Output' });
  return roots
    .filter(({ schema }) => isStructured(schema))
    .map(({ role, schema, suffix }) => ({
      role,
      schema,
      python: role === 'parameters' ? !/\(args: Any\)|\(self, args: Any\)/.test(python) : !/-> Any(:|$)/m.test(python),
      typescript: !new RegExp(`^type \\w+${suffix} = unknown;$`, 'm').test(typescript),
    }));
}

describe('the real-world corpus', () => {
  it('holds tool sets from MCP servers, a Python framework and OpenAPI', () => {
    expect(new Set(corpus.map((source) => source.kind))).toEqual(new Set(['mcp', 'pydantic', 'openapi']));
    expect(corpus.filter((source) => source.kind === 'mcp').length).toBeGreaterThanOrEqual(3);
    expect(allTools.length).toBeGreaterThan(90);
  });

  it('lowers every schema root without losing a single part', () => {
    const lost = allTools.flatMap((tool) =>
      [tool.parameters, tool.output].flatMap((schema) =>
        schema === undefined
          ? []
          : lowerSchema(schema).degradations.map((d) => `${tool.name}: ${d.path}: ${d.message}`),
      ),
    );
    expect(lost).toEqual([]);
  });

  it('types every structured argument and output root in both languages', () => {
    const roots = allTools.flatMap((tool) => typedRoots(tool).map((root) => ({ tool: tool.name, ...root })));
    const count = (role: string, language: 'python' | 'typescript') => {
      const ofRole = roots.filter((root) => root.role === role);
      return `${ofRole.filter((root) => root[language]).length}/${ofRole.length}`;
    };
    console.log(
      `corpus: ${allTools.length} tools; typed arguments python ${count('parameters', 'python')}, typescript ${count('parameters', 'typescript')}; ` +
        `typed outputs python ${count('output', 'python')}, typescript ${count('output', 'typescript')}`,
    );
    expect(roots.filter((root) => !root.python || !root.typescript).map((root) => `${root.tool} ${root.role}`)).toEqual(
      [],
    );
    expect(roots.length).toBeGreaterThan(100);
  });

  it.each(corpus.map((source) => [source.file, source.tools] as const))(
    'type-checks %s under TypeScript strict',
    (_, tools) => {
      const calls = tools.map(
        (tool, i) =>
          `  const r${i}: unknown = await tools[${JSON.stringify(tool.name)}]({} as Parameters<typeof tools[${JSON.stringify(tool.name)}]>[0]);`,
      );
      const program = ['async function main(): Promise<void> {', ...calls, '}', 'void main();', ''].join('\n');
      expect(diagnose(renderTypeScriptSdk(tools), program)).toEqual([]);
    },
  );

  it('renders byte-identically whatever the order of the tools', () => {
    const reversed = [...allTools].reverse();
    expect(renderPythonSdk(reversed)).toBe(renderPythonSdk(allTools));
    expect(renderTypeScriptSdk(reversed)).toBe(renderTypeScriptSdk(allTools));
  });
});

/** Tools that show each kind of source at its most demanding. */
const REPRESENTATIVE: [file: string, tool: string][] = [
  ['pydantic.json', 'adopt'],
  ['pydantic.json', 'update_tree'],
  ['openapi.json', 'createPet'],
  ['mcp-modelcontextprotocol-server-filesystem.json', 'edit_file'],
  ['mcp-modelcontextprotocol-server-memory.json', 'create_relations'],
  ['mcp-firecrawl-mcp.json', 'firecrawl_scrape'],
];

describe('snapshots of representative tools', () => {
  it.each(REPRESENTATIVE)('%s %s', async (file, name) => {
    const tool = corpus.find((source) => source.file === file)?.tools.find((candidate) => candidate.name === name);
    expect(tool, `${file} ${name}`).toBeDefined();
    const base = `./snapshots/${file.replace(/\.json$/, '')}.${name}`;
    await expect(renderPythonSdk([tool!])).toMatchFileSnapshot(`${base}.py`);
    await expect(renderTypeScriptSdk([tool!])).toMatchFileSnapshot(`${base}.ts`);
  });
});
