import { RUN_CODE_TOOL } from '../../contract/backend.js';
import type { ChatMessage, ModelRequest, ModelResponse } from '../../contract/model.js';
import type { Language } from '../../runtimes/seam/types.js';
import type { Scenario, ScriptStep } from '../scenario/types.js';
import { firstDifference, formatDifference } from './difference.js';

/** A live request that does not fit the scenario's script. */
export class ScriptMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptMismatch';
  }
}

type AssistantStep = Extract<ScriptStep, { kind: 'assistant' }>;

/** The name of the code tool on the wire. */

/** Deterministic ids of the scripted tool calls: `call-1`, `call-2`, … */
export const scriptedCallId = (index: number): string => `call-${index + 1}`;

/**
 * Answers requests from a scenario's script, in one language. Request n must carry exactly the conversation
 * so far: the user turn, then each earlier scripted call and a tool result answering it.
 */
export class ScriptedAnswers {
  private readonly user: string;
  private readonly turns: AssistantStep[];
  private readonly final: string;
  private next = 0;

  constructor(
    private readonly scenario: Scenario,
    private readonly language: Language,
  ) {
    const [first] = scenario.script;
    const last = scenario.script[scenario.script.length - 1];
    if (first?.kind !== 'user' || last?.kind !== 'final')
      throw new Error(
        `${scenario.scriptFile ?? scenario.file}: the script must run from a user turn to a final answer`,
      );
    this.user = first.text;
    this.final = last.text;
    this.turns = scenario.script.filter((s): s is AssistantStep => s.kind === 'assistant');
  }

  /** True once the final answer has been given. */
  get finished(): boolean {
    return this.next > this.turns.length;
  }

  answer(request: ModelRequest): ModelResponse {
    const index = this.next;
    const where = `${this.scenario.scriptFile ?? this.scenario.file}: request ${index + 1}`;
    if (index > this.turns.length)
      throw new ScriptMismatch(`${where}: the script already gave its final answer; the agent asked again`);
    if (!request.tools.some((t) => t.name === RUN_CODE_TOOL)) {
      throw new ScriptMismatch(
        `${where}: the script calls ${RUN_CODE_TOOL}, but the request offers only: ${request.tools.map((t) => t.name).join(', ') || '(no tools)'}`,
      );
    }
    this.checkMessages(request.messages, index, where);
    this.next++;
    if (index === this.turns.length) return { content: this.final, toolCalls: [] };
    return this.response(index);
  }

  private response(index: number): ModelResponse {
    const step = this.turns[index]!;
    const code = step.runCode.programs[this.language];
    if (code === undefined)
      throw new ScriptMismatch(
        `${this.scenario.scriptFile ?? this.scenario.file}: the step at line ${step.line} has no ${this.language} program`,
      );
    return {
      content: step.text,
      toolCalls: [
        { id: scriptedCallId(index), name: RUN_CODE_TOOL, arguments: { code, description: step.runCode.description } },
      ],
    };
  }

  private checkMessages(actual: ChatMessage[], index: number, where: string): void {
    const expected: unknown[] = [{ role: 'user', content: this.user }];
    for (let i = 0; i < index; i++) {
      const response = this.response(i);
      expected.push({ role: 'assistant', content: response.content, toolCalls: response.toolCalls });
      const live = actual[expected.length];
      // The tool result is the runtime's to produce; the script pins its role, its call id and any substrings it
      // expects.
      expected.push({
        role: 'tool',
        toolCallId: scriptedCallId(i),
        content: live?.role === 'tool' ? live.content : '(a tool result)',
      });
      const includes = this.turns[i]!.resultIncludes;
      const content = live?.role === 'tool' ? live.content : '';
      const missing = includes.find((part) => !content.includes(part));
      if (live?.role === 'tool' && missing !== undefined) {
        // Two lines a terminal always shows whole: what the script wants, and the result on one line (⏎ for its breaks).
        throw new ScriptMismatch(
          `${where} does not fit the script (step at line ${this.turns[i]!.line}): the result of ${scriptedCallId(i)} should include ${JSON.stringify(missing)}\n` +
            `  - script:  (text including) ${missing}\n` +
            `  + request: ${content.trimEnd().split('\n').join(' ⏎ ')}`,
        );
      }
    }
    const difference = firstDifference(expected, actual, 'messages');
    if (difference) throw new ScriptMismatch(`${where} does not fit the script; ${formatDifference(difference)}`);
  }
}
