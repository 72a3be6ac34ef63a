// How concord boots this app: with deepseek-harness's own loader, its cordis.yml, and two things put in for the gate —
// a model adapter that asks concord's keyless model, and (off the TypeScript lane) concord's runtime behind the
// harness's code-runtime seam, so the harness renders its own Python SDK for it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Context } from '@deepseek-ai/cordis';
import Include from '@deepseek-ai/cordis-plugin-include';
import Loader from '@deepseek-ai/cordis-plugin-loader';
import { CodeRuntime } from '@deepseek-ai/dsh-code-runtime';
import { createUserMessage, LlmAdapter, ReasoningEffortId } from '@deepseek-ai/dsh-llm';
import { parse } from 'yaml';

/** The provider the app's agents are configured with: the gate answers for it. */
const PROVIDER = 'notebook-model';
const OFF = ReasoningEffortId('off');
/** A probe tool's result, as the model reads it. */
const asText = (_args, value) => [{ type: 'text', text: JSON.stringify(value) }];

/** A harness model adapter whose every request goes to concord's model, its answer streamed back as chunks. */
class GateAdapter extends LlmAdapter {
  constructor(model) {
    super();
    this.model = model;
  }

  async resolveModel(provider, model) {
    return { provider, id: model, name: model, reasoning: { efforts: [{ id: OFF, name: 'Off' }], defaultEffort: OFF } };
  }

  async *stream(options) {
    let answer;
    try {
      answer = await this.model.complete({
        system: options.system ?? '',
        tools: options.tools ?? [],
        messages: options.messages.map((message) => ({ role: message.role, content: message.content })),
      });
    } catch (error) {
      return yield { type: 'finish', reason: { kind: 'error', failure: { code: 'SERVER', message: `${error}` } } };
    }
    let index = 0;
    if (answer.content !== '') {
      yield { type: 'block-start', index, blockType: 'text' };
      yield { type: 'text-delta', index, text: answer.content };
      yield { type: 'block-end', index, block: { type: 'text', text: answer.content } };
      index++;
    }
    for (const call of answer.toolCalls) {
      const args = JSON.stringify(call.arguments);
      yield { type: 'block-start', index, blockType: 'tool-call' };
      yield { type: 'tool-call-delta', index, id: call.id, name: call.name, argumentsDelta: args };
      yield { type: 'block-end', index, block: { type: 'tool-call', id: call.id, name: call.name, arguments: args } };
      index++;
    }
    yield { type: 'usage', usage: { inputTokens: 0, outputTokens: 0 } };
    yield { type: 'finish', reason: { kind: answer.toolCalls.length > 0 ? 'tool-calls' : 'stop' } };
  }
}

/** The harness's binding namespaces as concord's seam takes them, and back. */
const toConcord = (bindings) =>
  bindings.map(({ global, functions, errorClass }) => ({
    name: global,
    functions: new Map(Object.entries(functions)),
    ...(errorClass ? { errorClass: { name: errorClass.name, memberProperty: errorClass.memberNameProperty } } : {}),
  }));
const toHarness = (bindings) =>
  bindings.map(({ name, functions, errorClass }) => ({
    global: name,
    functions: Object.fromEntries(functions),
    ...(errorClass ? { errorClass: { name: errorClass.name, memberNameProperty: errorClass.memberProperty } } : {}),
  }));

/** concord's runtime of the pair, mounted as the harness's `ctx.codeRuntime`. */
function concordRuntimePlugin(runtime) {
  return class ConcordRuntime extends CodeRuntime {
    language = runtime.language;
    isolation = runtime.isolation;
    run(request) {
      return runtime.run({ program: request.program, bindings: toConcord(request.bindings), signal: request.signal });
    }
  };
}

/** The harness's own runtime as concord watches it: its runs cross `run` here, and the harness calls through it. */
function watchedHarnessRuntime(service) {
  const run = service.run.bind(service);
  const watched = {
    language: service.language,
    isolation: service.isolation,
    run: (request) => run({ program: request.program, bindings: toHarness(request.bindings), signal: request.signal }),
    dispose: async () => {},
  };
  service.run = (request) =>
    watched.run({ program: request.program, bindings: toConcord(request.bindings), signal: request.signal });
  return watched;
}

export default {
  name: 'deepseek-harness',
  async boot(input) {
    const [major, minor] = process.versions.node.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 19))
      throw new Error(`deepseek-harness needs Node 22.19 or later; this is Node ${process.versions.node}`);
    const own = input.runtime.language === 'typescript';
    const root = new Context();
    root.baseUrl = pathToFileURL(`${input.root}/`).href;
    await root.plugin(Loader, { baseUrl: root.baseUrl });
    await root.plugin({
      name: 'gate-model',
      inject: ['llm'],
      apply: (ctx) => ctx.llm.registerAdapter([PROVIDER], new GateAdapter(input.model)),
    });
    if (!own) await root.plugin(concordRuntimePlugin(input.codeRuntime));
    const patches = own ? [] : [{ id: 'code-runtime', disabled: true }];
    await root.plugin(Include, { path: './cordis.yml', patches });
    await root.loader.await();
    const dispose = () => root.fiber.dispose();
    if (input.signal.aborted) return dispose().then(() => Promise.reject(new Error('the gate stopped waiting')));
    const [agent] = root.agents.list();
    const entries = parse(await readFile(join(input.root, 'cordis.yml'), 'utf8'));
    const runtimeEntry = own ? [] : [{ id: 'concord-runtime', name: `concord's ${input.runtime.name} runtime` }];
    return {
      codeRuntime: own ? watchedHarnessRuntime(root.codeRuntime) : input.codeRuntime,
      async converse(text) {
        agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }));
        await new Promise((resolve) => setImmediate(resolve));
        await agent.whenIdle();
      },
      registerTool: (tool) =>
        root.tools.register({
          name: tool.name,
          description: tool.description,
          parameters: tool.parameters,
          output: { schema: tool.output ?? {}, render: asText },
          execute: (args) => tool.execute(args),
        }),
      assembly: [
        { id: 'gate-model', name: `concord's keyless model, as ${PROVIDER}` },
        ...runtimeEntry,
        ...entries.filter((entry) => own || entry.id !== 'code-runtime'),
      ],
      dispose,
    };
  },
};
