import type { JsonValue, Language, RegisteredTool, ToolRegistryService } from 'concord/contract';
import { CLOSING, GUIDE } from './prose.js';
import { type PythonRenderer, renderPython, renderTypeScript } from './render.js';

interface RegistryConfig {
  /** `careful` (default) or `upstream`: see render.ts. */
  python?: PythonRenderer;
  /** `crossed`: each section's guide is the other language's (a mistake the gate must name). */
  prose?: 'own' | 'crossed';
}

/** This backend's `tools` service: the contract's `register`, and what its own agent needs besides. */
export interface ProseRegistry extends ToolRegistryService {
  tools(): RegisteredTool[];
  /** The `tools:sdk` section for the runtime's language: a prose guide, one fenced block, a closing line. */
  sdkSection(language: Language): string;
  call(name: string, args: JsonValue): Promise<JsonValue>;
}

const OTHER: Readonly<Record<Language, Language>> = { python: 'typescript', typescript: 'python' };

function createRegistry(config: RegistryConfig): ProseRegistry {
  const registered = new Map<string, RegisteredTool>();
  return {
    register(tool) {
      if (registered.has(tool.name))
        throw new Error(`prose registry: a tool named ${JSON.stringify(tool.name)} is already registered`);
      registered.set(tool.name, tool);
      return () => {
        if (registered.get(tool.name) === tool) registered.delete(tool.name);
      };
    },
    tools: () => [...registered.values()],
    sdkSection(language) {
      const tools = [...registered.values()];
      const block =
        language === 'python'
          ? '```py\n' + renderPython(tools, config.python ?? 'careful') + '```'
          : '```ts\n' + renderTypeScript(tools) + '```';
      return GUIDE[config.prose === 'crossed' ? OTHER[language] : language] + '\n' + block + '\n' + CLOSING;
    },
    async call(name, args) {
      const tool = registered.get(name);
      if (tool === undefined) throw new Error(`no tool named ${JSON.stringify(name)}`);
      return tool.execute(args);
    },
  };
}

/** A cordis plugin that provides `ctx.tools`. */
export default {
  name: 'prose-registry',
  apply(ctx: { set(name: string, value: unknown): () => void }, config: RegistryConfig | undefined) {
    ctx.set('tools', createRegistry(config ?? {}));
  },
};
