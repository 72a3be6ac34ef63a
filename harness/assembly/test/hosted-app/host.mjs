// A backend of its own, booted by this host: its system prompt is one string, its messages content blocks, its tools
// a plain map, and its agent a loop of a few lines. It runs every program on the pair's runtime concord hands it.
import { renderSdkSection } from 'concord/codemode';

const NAMES = { typescript: 'TypeScript', python: 'Python' };

export default {
  name: 'hosted-app',
  async boot(input) {
    if (process.env.HOSTED_APP_FAILS === 'boot') throw new Error('the notebook store is unreachable');
    if (process.env.HOSTED_APP_FAILS === 'hang') return new Promise(() => {});
    const { language } = input.runtime;
    const tools = new Map();
    const register = (tool) => {
      tools.set(tool.name, tool);
      return () => tools.delete(tool.name);
    };
    register({
      name: 'echo',
      description: 'Says the text back.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      output: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: async ({ text }) => ({ text }),
    });
    const runCode = {
      name: 'run_code',
      description: `Runs a ${NAMES[language]} program that calls the tools of the SDK.`,
      parameters: {
        type: 'object',
        properties: {
          code: { type: 'string', description: `The ${NAMES[language]} program: the body of an async function.` },
          description: { type: 'string', description: 'What the program does.' },
        },
        required: ['code', 'description'],
      },
    };
    const system = () => `You answer briefly.\n\n${renderSdkSection(language, [...tools.values()])}`;
    return {
      codeRuntime: input.codeRuntime,
      async converse(text) {
        const messages = [{ role: 'user', content: [{ type: 'text', text }] }];
        for (let turn = 0; turn < 4; turn++) {
          const answer = await input.model.complete({ system: system(), tools: [runCode], messages });
          const calls = answer.toolCalls.map((call) => ({
            type: 'tool-call',
            ...call,
            arguments: JSON.stringify(call.arguments),
          }));
          messages.push({ role: 'assistant', content: [{ type: 'text', text: answer.content }, ...calls] });
          if (calls.length === 0) return;
          for (const call of answer.toolCalls) {
            const functions = new Map([...tools].map(([name, tool]) => [name, (args) => tool.execute(args)]));
            const result = await input.codeRuntime.run({
              program: call.arguments.code,
              bindings: [
                { name: 'tools', functions, errorClass: { name: 'ToolCallError', memberProperty: 'toolName' } },
              ],
            });
            const content = JSON.stringify(result.error ?? result.value ?? null);
            messages.push({ role: 'user', content: [{ type: 'tool-result', toolCallId: call.id, content }] });
          }
        }
      },
      registerTool: register,
      assembly: [{ id: 'hosted-app', name: 'a backend of its own' }],
      dispose: async () => tools.clear(),
    };
  },
};
