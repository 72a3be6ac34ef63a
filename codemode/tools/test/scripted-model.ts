import type { Model, ModelRequest, ModelResponse, ToolCall } from '../../../contract/model.js';

/** A model that answers from a script, one response per request, and keeps every request verbatim. */
export function scriptedModel(responses: ModelResponse[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let next = 0;
  return {
    requests,
    async complete(request) {
      // concord's own agent sends its system prompt in sections and chat messages: the form the tests read.
      requests.push(structuredClone(request) as ModelRequest);
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
