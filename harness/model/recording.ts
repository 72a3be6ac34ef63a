import { basename, dirname, join } from 'node:path';
import { stringify } from 'yaml';
import type { ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import { writeFileAtomic } from '../snapshot/atomic.js';
import { completeOverHttp, type EndpointOptions } from './openai.js';

/** The file a recording goes to: beside the scenario, one per language (programs differ by language). */
export function recordingPath(scenarioFile: string, language: Language): string {
  return join(dirname(scenarioFile), basename(scenarioFile).replace(/\.ya?ml$/, '') + `.recorded.${language}.yml`);
}

/**
 * Asks a live endpoint and writes its answers as script steps beside the scenario, rewritten after every
 * answer, so a recording can be pasted into the scenario's script.
 */
export class RecordingModel {
  private readonly steps: unknown[] = [];

  constructor(
    private readonly endpoint: EndpointOptions,
    private readonly scenarioFile: string,
    private readonly language: Language,
  ) {}

  async complete(request: ModelRequest): Promise<ModelResponse> {
    if (this.steps.length === 0) {
      const user = request.messages.find((m) => m.role === 'user');
      if (user) this.steps.push({ user: user.content });
    }
    const response = await completeOverHttp(this.endpoint, request);
    this.steps.push(toStep(response, this.language));
    await writeFileAtomic(recordingPath(this.scenarioFile, this.language), stringify(this.steps, { lineWidth: 0, blockQuote: 'literal' }));
    return response;
  }
}

function toStep(response: ModelResponse, language: Language): unknown {
  if (response.toolCalls.length === 0) return { final: response.content };
  const calls = response.toolCalls.map((call) => {
    const args = (call.arguments ?? {}) as Record<string, unknown>;
    if (call.name === 'run_code') return { run_code: { description: args.description, [language]: args.code } };
    return { call: { name: call.name, arguments: call.arguments } };
  });
  return { assistant: { ...(response.content ? { say: response.content } : {}), ...(calls.length === 1 ? calls[0] as object : { calls }) } };
}
