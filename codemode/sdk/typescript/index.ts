import type { JsonSchema } from '../../schema/types.js';
import { validateSchema } from '../../schema/validate.js';
import type { SdkRenderer, ToolDefinition } from '../../tools/types.js';
import { docComment, propertyName } from './escape.js';
import { BaseNamer } from './names.js';
import { schemaDoc, writeType } from './type-text.js';
import { TYPESCRIPT_SDK_USAGE } from './usage.js';

const INDENT = '  ';

/** A schema root rendered without its type name, so it can take part in ordering before names exist. */
interface RenderedType {
  doc: string[];
  text: string;
}

interface RenderedTool {
  name: string;
  doc: string[];
  args: RenderedType;
  output: RenderedType;
}

const UNKNOWN: RenderedType = { doc: [], text: 'unknown' };

function trusted(root: unknown): JsonSchema | undefined {
  try {
    return validateSchema(root).length === 0 ? (root as JsonSchema) : undefined;
  } catch {
    // A root built in code may hold getters that throw; it is as unusable as an invalid one.
    return undefined;
  }
}

function renderRoot(root: unknown): RenderedType {
  const schema = trusted(root);
  if (schema === undefined) return UNKNOWN;
  const parts: string[] = [];
  writeType(schema, 0, parts);
  return { doc: docComment(schemaDoc(schema), ''), text: parts.join('') };
}

function renderTool(tool: ToolDefinition): RenderedTool {
  return {
    name: typeof tool.name === 'string' ? tool.name : String(tool.name),
    doc: docComment(typeof tool.description === 'string' ? tool.description : '', INDENT),
    args: renderRoot(tool.parameters),
    output: tool.output === undefined ? UNKNOWN : renderRoot(tool.output),
  };
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Name order first; tools sharing a name (a broken set) are ordered by everything they render to, so
 * equal keys mean identical text and input order can never show through.
 */
function compareTools(a: RenderedTool, b: RenderedTool): number {
  return (
    compareCodeUnits(a.name, b.name) ||
    compareCodeUnits(a.doc.join('\n'), b.doc.join('\n')) ||
    compareCodeUnits(a.args.doc.join('\n'), b.args.doc.join('\n')) ||
    compareCodeUnits(a.args.text, b.args.text) ||
    compareCodeUnits(a.output.doc.join('\n'), b.output.doc.join('\n')) ||
    compareCodeUnits(a.output.text, b.output.text)
  );
}

function typeAlias(name: string, rendered: RenderedType): string {
  return [...rendered.doc, `type ${name} = ${rendered.text};`].join('\n');
}

/**
 * The TypeScript `tools:sdk` section: usage comments, `ToolCallError`, an argument and an output type per
 * tool, and the `tools` constant with one method per tool in code-unit order of names. The text is a
 * declaration file the compiler accepts for any tool set, and the same tool set in any order gives the
 * same bytes. Each schema root is validated once; one outside the subset becomes `unknown`.
 */
export const renderTypeScriptSdk: SdkRenderer = (tools) => {
  const rendered = tools.map(renderTool).sort(compareTools);
  const namer = new BaseNamer();
  const blocks: string[] = [
    TYPESCRIPT_SDK_USAGE.join('\n'),
    [
      'declare class ToolCallError extends Error {',
      `${INDENT}/** The name of the tool whose call failed. */`,
      `${INDENT}readonly toolName: string;`,
      '}',
    ].join('\n'),
  ];
  const members: string[] = [];
  for (const tool of rendered) {
    const base = namer.claim(tool.name);
    blocks.push(typeAlias(`${base}Args`, tool.args), typeAlias(`${base}Output`, tool.output));
    // `new(...)` in a type literal would declare a construct signature, not a method named "new".
    const key = tool.name === 'new' ? `"new"` : propertyName(tool.name);
    members.push(...tool.doc, `${INDENT}${key}(args: ${base}Args): Promise<${base}Output>;`);
  }
  blocks.push(members.length === 0 ? 'declare const tools: {};' : ['declare const tools: {', ...members, '};'].join('\n'));
  return `${blocks.join('\n\n')}\n`;
};
