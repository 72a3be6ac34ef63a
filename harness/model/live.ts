import { RUN_CODE_TOOL } from '../../contract/backend.js';
import type { Model, ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import type { ScriptStep } from '../scenario/types.js';
import { completeOverHttp, type EndpointOptions } from './openai.js';

/** The name of the code tool on the wire. */

/** The live model answered something a script cannot hold, or something the agent cannot use. */
export class LiveModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiveModelError';
  }
}

/**
 * A live OpenAI-compatible model that keeps what it answered as script steps in one language, in memory:
 * the caller decides whether anything is written, once the whole conversation succeeded.
 */
export class LiveModel implements Model {
  readonly steps: ScriptStep[] = [];
  /** The first failure, as the one line the command prints. */
  failure?: string;
  /**
   * Whether that failure was the endpoint's (no usable answer) or the conversation's (an answer a script cannot hold).
   */
  failureKind?: 'endpoint' | 'conversation';

  constructor(
    private readonly endpoint: EndpointOptions,
    private readonly language: Language,
  ) {}

  /** True once the model answered in words. */
  get finished(): boolean {
    return this.steps.at(-1)?.kind === 'final';
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    try {
      return this.keep(request, await completeOverHttp(this.endpoint, request));
    } catch (error) {
      if (this.failure === undefined) {
        this.failure = (error as Error).message;
        this.failureKind = error instanceof LiveModelError ? 'conversation' : 'endpoint';
      }
      throw error;
    }
  }

  private keep(request: ModelRequest, response: ModelResponse): ModelResponse {
    const turn = this.steps.filter((s) => s.kind === 'assistant').length + 1;
    if (this.steps.length === 0) {
      const user = request.messages.find((m) => m.role === 'user');
      this.steps.push({ kind: 'user', text: user?.content ?? '', line: 0 });
    }
    if (response.toolCalls.length === 0) {
      this.steps.push({ kind: 'final', text: response.content, line: 0 });
      return response;
    }
    const offered = request.tools.map((t) => t.name);
    for (const call of response.toolCalls) {
      if (!offered.includes(call.name)) {
        throw new LiveModelError(
          `answer ${turn}: the model called ${JSON.stringify(call.name)}, a tool the request does not offer (offered: ${offered.join(', ') || 'none'})`,
        );
      }
      if (call.name !== RUN_CODE_TOOL) {
        throw new LiveModelError(
          `answer ${turn}: the model called the tool ${JSON.stringify(call.name)} directly; a script holds ${RUN_CODE_TOOL} calls only (use mode: code)`,
        );
      }
    }
    if (response.toolCalls.length > 1) {
      throw new LiveModelError(
        `answer ${turn}: the model made ${response.toolCalls.length} ${RUN_CODE_TOOL} calls at once; a script step holds one (ask for one program per turn in the persona)`,
      );
    }
    const args = response.toolCalls[0]!.arguments as Record<string, unknown> | null;
    const code = args?.code;
    const description = args?.description;
    if (
      typeof code !== 'string' ||
      code.trim() === '' ||
      typeof description !== 'string' ||
      description.trim() === ''
    ) {
      throw new LiveModelError(
        `answer ${turn}: the ${RUN_CODE_TOOL} call lacks its code or description (both must be non-empty strings)`,
      );
    }
    this.steps.push({
      kind: 'assistant',
      text: response.content,
      runCode: { description, programs: { [this.language]: code } },
      resultIncludes: [],
      line: 0,
    });
    return response;
  }
}
