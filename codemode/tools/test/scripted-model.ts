import type { Model, ModelRequest, ModelResponse, ToolCall } from '../../../contract/model.js';

/** A model that answers from a script, one response per request, and keeps every request verbatim. */
export function scriptedModel(responses: ModelResponse[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let next = 0;
  return {
    requests,
    async complete(request) {
      requests.push(structuredClone(request));
      const response = responses[next++];
      if (response === undefined) throw new Error(`scripted model: no response left for request ${next}`);
      return response;
    },
  };
}

export function callTools(...calls: ToolCall[]): ModelResponse {
  return { content: '', toolCalls: calls };
}

export function finalAnswer(content: string): ModelResponse {
  return { content, toolCalls: [] };
}
