import type { JsonValue, RegisteredTool, ToolRegistryService } from 'concord/contract';
import { renderPythonSdk } from './render.js';

/** This backend's `tools` service: the contract's `register`, and what its own agent needs besides. */
export interface NaiveRegistry extends ToolRegistryService {
  /** The registered tools, in registration order. */
  tools(): RegisteredTool[];
  /** The `tools:sdk` section: the Python stubs in one fenced block. */
  sdkSection(): string;
  call(name: string, args: JsonValue): Promise<JsonValue>;
}

function createRegistry(): NaiveRegistry {
  const registered = new Map<string, RegisteredTool>();
  return {
    register(tool) {
      if (registered.has(tool.name))
        throw new Error(`naive registry: a tool named ${JSON.stringify(tool.name)} is already registered`);
      registered.set(tool.name, tool);
      return () => {
        if (registered.get(tool.name) === tool) registered.delete(tool.name);
      };
    },
    tools: () => [...registered.values()],
    sdkSection: () => '```python\n' + renderPythonSdk([...registered.values()]) + '```',
    async call(name, args) {
      const tool = registered.get(name);
      if (tool === undefined) throw new Error(`no tool named ${JSON.stringify(name)}`);
      return tool.execute(args);
    },
  };
}

/** A cordis plugin that provides `ctx.tools`. */
export default {
  name: 'naive-registry',
  apply(ctx: { set(name: string, value: unknown): () => void }) {
    ctx.set('tools', createRegistry());
  },
};
