// The agent loop as a cordis plugin, loadable by path from a `cordis.yml` entry:
//   - name: <concord>/dist/codemode/agent/plugin.js
//     config: { persona: 'You are …', maxTurns: 10 }
export { Agent as default } from './agent.js';
export type { AgentConfig } from './config.js';
