import type { Model } from '../../contract/model.js';
import type { CodeRuntime } from '../../runtimes/seam/types.js';
import type { Agent } from '../agent/agent.js';
import type { ToolRegistry } from './registry.js';

// The one place where the services of a concord app are named, so every plugin agrees on their types.
declare module 'cordis' {
  interface Context {
    /** The tool registry (`codemode/tools/plugin.ts`). */
    tools: ToolRegistry;
    /** The mounted code runtime, provided by a backend plugin. */
    codeRuntime: CodeRuntime;
    /** The model the agent talks to, provided by a model plugin. */
    model: Model;
    /** The agent loop (`codemode/agent/plugin.ts`). */
    agent: Agent;
  }
}
