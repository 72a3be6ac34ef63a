import { describe, expect, it } from 'vitest';
import { recordedRequest } from './request-form.js';

const SDK =
  'Write TypeScript.\n\n```ts\ndeclare const tools: { echo(args: { text: string }): Promise<string> };\n```\n';

describe('a request as the gate records it', () => {
  it('keeps a system prompt of one string as one section: tools:sdk when it holds the SDK, system otherwise', () => {
    expect(recordedRequest({ system: `You are brief.\n\n${SDK}`, tools: [], messages: [] }).system).toEqual([
      { id: 'tools:sdk', text: `You are brief.\n\n${SDK}` },
    ]);
    expect(recordedRequest({ system: 'You are brief.', tools: [], messages: [] }).system).toEqual([
      { id: 'system', text: 'You are brief.' },
    ]);
    const sections = [{ id: 'persona', text: 'You are brief.' }];
    expect(recordedRequest({ system: sections, tools: [], messages: [] }).system).toBe(sections);
  });

  it('reads messages of content blocks as the chat turns they are', () => {
    const { messages } = recordedRequest({
      system: '',
      tools: [],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Say hi.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'not compared' },
            { type: 'text', text: 'On it.' },
            { type: 'tool-call', id: 'call-1', name: 'run_code', arguments: '{"code":"return 1","description":"d"}' },
            { type: 'tool-call', id: 'call-2', name: 'run_code', arguments: 'not json' },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool-result', toolCallId: 'call-1', content: [{ type: 'text', text: '1' }] },
            { type: 'tool-result', toolCallId: 'call-2', content: 'failed' },
          ],
        },
        { role: 'user', content: 'plain' },
      ],
    });
    expect(messages).toEqual([
      { role: 'user', content: 'Say hi.' },
      {
        role: 'assistant',
        content: 'On it.',
        toolCalls: [
          { id: 'call-1', name: 'run_code', arguments: { code: 'return 1', description: 'd' } },
          { id: 'call-2', name: 'run_code', arguments: 'not json' },
        ],
      },
      { role: 'tool', toolCallId: 'call-1', content: '1' },
      { role: 'tool', toolCallId: 'call-2', content: 'failed' },
      { role: 'user', content: 'plain' },
    ]);
  });
});
