import type { CoreSchema } from '../../schema/core.js';
import { lowerSchema } from '../../schema/lower.js';
import type { SdkRenderer, ToolDefinition } from '../../tools/types.js';
import { docComment, propertyName } from './escape.js';
import { pascalBase, toolBases } from './names.js';
import { schemaDoc, writeType } from './type-text.js';
import { TYPESCRIPT_SDK_USAGE } from './usage.js';

const INDENT = '  ';

/**
 * A schema root rendered without its type name, so it can take part in ordering before names exist.
 * Names of its definitions' types start with BASE, replaced by the tool's base once bases are handed out.
 */
interface RenderedType {
  doc: string[];
  text: string;
  /** `type BASE_Name = ...;` for each definition the root reaches. */
  definitions: string[];
}

/** Stands for the tool's base inside rendered text; escaping keeps a NUL out of everything else. */
const BASE = '\u0000';

interface RenderedTool {
  name: string;
  doc: string[];
  args: RenderedType;
  output: RenderedType;
}

const UNKNOWN: RenderedType = { doc: [], text: 'unknown', definitions: [] };

/**
 * One root's type and the aliases of the definitions it reaches (each written once, recursion by name).
 * `taken` holds the definition names used so far by the tool, so its two roots never share a name.
 */
function renderRoot(root: unknown, suffix: string, taken: Set<string>): RenderedType {
  const lowered = lowerSchema(root);
  const names = new Map<string, string>();
  const queue: string[] = [];
  const refName = (key: string): string => {
    let name = names.get(key);
    if (name === undefined) {
      const definition = lowered.definitions.get(key);
      if (definition === undefined) return 'unknown';
      const local = key === '#' ? suffix : pascalBase(definition.name);
      let unique = local;
      for (let counter = 2; taken.has(unique); counter++) unique = `${local}${counter}`;
      taken.add(unique);
      name = `${BASE}_${unique}`;
      names.set(key, name);
      queue.push(key);
    }
    return name;
  };
  const typeText = (schema: CoreSchema): string => {
    const parts: string[] = [];
    writeType(schema, 0, parts, refName);
    return parts.join('');
  };
  // A root that refers to itself is its own definition: the tool's type names it.
  const text = lowered.definitions.has('#') ? refName('#') : typeText(lowered.schema);
  const definitions: string[] = [];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const schema = lowered.definitions.get(next)!.schema;
    definitions.push(
      [...docComment(schemaDoc(schema), ''), `type ${names.get(next)!} = ${typeText(schema)};`].join('\n'),
    );
  }
  return { doc: docComment(schemaDoc(lowered.schema), ''), text, definitions };
}

function renderTool(tool: ToolDefinition): RenderedTool {
  const taken = new Set<string>();
  return {
    name: typeof tool.name === 'string' ? tool.name : String(tool.name),
    doc: docComment(typeof tool.description === 'string' ? tool.description : '', INDENT),
    args: renderRoot(tool.parameters, 'Args', taken),
    output: tool.output === undefined ? UNKNOWN : renderRoot(tool.output, 'Output', taken),
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
    compareCodeUnits(a.args.definitions.join('\n'), b.args.definitions.join('\n')) ||
    compareCodeUnits(a.output.doc.join('\n'), b.output.doc.join('\n')) ||
    compareCodeUnits(a.output.text, b.output.text) ||
    compareCodeUnits(a.output.definitions.join('\n'), b.output.definitions.join('\n'))
  );
}

function typeAliases(base: string, name: string, rendered: RenderedType): string[] {
  const own = [...rendered.doc, `type ${name} = ${rendered.text};`].join('\n');
  return [own, ...rendered.definitions].map((text) => text.replaceAll(BASE, base));
}

/**
 * The TypeScript `tools:sdk` section: usage comments, `ToolCallError`, an argument and an output type per
 * tool, and the `tools` constant with one method per tool in code-unit order of names. The text is a
 * declaration file the compiler accepts for any tool set, and the same tool set in any order gives the
 * same bytes. Each schema root is lowered once; a part no type can express becomes `unknown`.
 */
export const renderTypeScriptSdk: SdkRenderer = (tools) => {
  const rendered = tools.map(renderTool).sort(compareTools);
  const bases = toolBases(rendered.map((tool) => tool.name));
  const blocks: string[] = [
    TYPESCRIPT_SDK_USAGE.join('\n'),
    [
      'declare class ToolCallError extends Error {',
      `${INDENT}/** The name of the tool whose call failed. */`,
      `${INDENT}readonly toolName: string;`,
      `${INDENT}/** The code the tool gave with its error (such as "card_declined"), if any. */`,
      `${INDENT}readonly code?: string | number;`,
      `${INDENT}/** JSON data the tool gave with its error, if any. */`,
      `${INDENT}readonly data?: unknown;`,
      '}',
    ].join('\n'),
  ];
  const members: string[] = [];
  for (const [index, tool] of rendered.entries()) {
    const base = bases[index]!;
    blocks.push(...typeAliases(base, `${base}Args`, tool.args), ...typeAliases(base, `${base}Output`, tool.output));
    // `new(...)` in a type literal would declare a construct signature, not a method named "new".
    const key = tool.name === 'new' ? `"new"` : propertyName(tool.name);
    members.push(...tool.doc, `${INDENT}${key}(args: ${base}Args): Promise<${base}Output>;`);
  }
  blocks.push(
    members.length === 0 ? 'declare const tools: {};' : ['declare const tools: {', ...members, '};'].join('\n'),
  );
  return `${blocks.join('\n\n')}\n`;
};
