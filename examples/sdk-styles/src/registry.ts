import type { JsonValue, Language, RegisteredTool, ToolRegistryService } from 'concord/contract';
import { type PythonStyle, renderPython } from './python-styles.js';
import { renderTypeScript, type TypeScriptStyle } from './typescript-styles.js';

interface RegistryConfig {
  /** The shape the TypeScript SDK is written in (default `mapped`). */
  typescript?: TypeScriptStyle;
  /** The shape the Python SDK is written in (default `methods`). */
  python?: PythonStyle;
}

/** This backend's `tools` service: the contract's `register`, and what its own agent needs besides. */
export interface StyledRegistry extends ToolRegistryService {
  tools(): RegisteredTool[];
  /** The `tools:sdk` section for the runtime's language: a short guide and one fenced block. */
  sdkSection(language: Language): string;
  call(name: string, args: JsonValue): Promise<JsonValue>;
}

/** How to write a program against the block, in each language's own words. */
const GUIDE: Readonly<Record<Language, string>> = {
  python:
    'Write the body of an async Python function for run_code. Call a tool as `await tools.name(args)`, or as ' +
    '`await tools["name"](args)` when its name is no identifier, and return a JSON value.',
  typescript:
    'Write the body of an async TypeScript function for run_code. Call a tool as `await tools.name(args)`, or as ' +
    '`await tools["name"](args)` when its name is no identifier, and return a JSON value.',
};

export function sdkSection(tools: readonly RegisteredTool[], language: Language, config: RegistryConfig): string {
  const block =
    language === 'python'
      ? `\`\`\`python\n${renderPython(tools, config.python ?? 'methods')}\`\`\``
      : `\`\`\`ts\n${renderTypeScript(tools, config.typescript ?? 'mapped')}\`\`\``;
  return `${GUIDE[language]}\n\n${block}\n`;
}

function createRegistry(config: RegistryConfig): StyledRegistry {
  const registered = new Map<string, RegisteredTool>();
  return {
    register(tool) {
      if (registered.has(tool.name))
        throw new Error(`styled registry: a tool named ${JSON.stringify(tool.name)} is already registered`);
      registered.set(tool.name, tool);
      return () => {
        if (registered.get(tool.name) === tool) registered.delete(tool.name);
      };
    },
    tools: () => [...registered.values()],
    sdkSection: (language) => sdkSection([...registered.values()], language, config),
    async call(name, args) {
      const tool = registered.get(name);
      if (tool === undefined) throw new Error(`no tool named ${JSON.stringify(name)}`);
      return tool.execute(args);
    },
  };
}

/** A cordis plugin that provides `ctx.tools`. */
export default {
  name: 'styled-registry',
  apply(ctx: { set(name: string, value: unknown): () => void }, config: RegistryConfig | undefined) {
    ctx.set('tools', createRegistry(config ?? {}));
  },
};
