import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest } from '../../contract/model.js';
import { completeOverHttp, describeEndpoint, ENDPOINT_DEFAULTS, type EndpointOptions, redact } from './openai.js';

let asked = 0;
const seen: any[] = [];
const server: Server = createServer(async (req, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  asked++;
  seen.push(JSON.parse(raw));
  res.setHeader('content-type', 'application/json');
  res.end(
    JSON.stringify({
      choices: [
        {
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'x1',
                type: 'function',
                function: { name: 'run_code', arguments: '{"code":"return 1","description":"one"}' },
              },
            ],
          },
        },
      ],
    }),
  );
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const endpoint = (more: Partial<EndpointOptions> = {}): EndpointOptions => ({
  baseUrl: base,
  model: 'm',
  ...ENDPOINT_DEFAULTS,
  ...more,
});
const request: ModelRequest = {
  system: [
    { id: 'persona', text: 'Be brief.' },
    { id: 'tools:sdk', text: '```python\nclass Tools: ...\n```' },
  ],
  tools: [{ name: 'run_code', description: 'Run Python.', parameters: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Count.' },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'run_code', arguments: { code: 'return 1', description: 'one' } }],
    },
    { role: 'tool', toolCallId: 'c1', content: 'value: 1' },
  ],
};

describe('the OpenAI-compatible client', () => {
  it('sends the system sections, tools and messages in chat-completions form and reads tool calls back', async () => {
    const answer = await completeOverHttp(endpoint(), request);
    expect(answer).toEqual({
      content: '',
      toolCalls: [{ id: 'x1', name: 'run_code', arguments: { code: 'return 1', description: 'one' } }],
    });
    const body = seen.at(-1);
    expect(body.model).toBe('m');
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.\n\n```python\nclass Tools: ...\n```' });
    expect(body.messages[2].tool_calls[0].function.arguments).toBe('{"code":"return 1","description":"one"}');
    expect(body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'value: 1' });
    expect(body.tools[0]).toEqual({
      type: 'function',
      function: { name: 'run_code', description: 'Run Python.', parameters: { type: 'object' } },
    });
  });

  it('refuses to send a request over the size limit, without contacting the endpoint', async () => {
    const before = asked;
    await expect(completeOverHttp(endpoint({ maxRequestBytes: 100 }), request)).rejects.toThrow(
      /would be \d+ bytes, over the limit of 100/,
    );
    expect(asked).toBe(before);
  });

  it('names an unreachable endpoint in one line', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      completeOverHttp(endpoint({ baseUrl: `http://127.0.0.1:${port}/v1`, retries: 0 }), request),
    ).rejects.toThrow(`http://127.0.0.1:${port}/v1 could not be reached: ECONNREFUSED`);
  });

  it('blanks the key, bearer tokens and URL credentials from messages, and prints the endpoint without them', () => {
    const secret = { apiKey: 'sk-abc123', baseUrl: 'https://user:p%40ss@host.example/v1?key=q-777' };
    expect(redact('got sk-abc123 and Bearer xyz, p@ss, user, key=q-777\nsecond line', secret)).toBe(
      'got [redacted] and Bearer [redacted] [redacted], [redacted], [redacted] second line',
    );
    expect(describeEndpoint(secret.baseUrl)).toBe('https://host.example/v1');
  });
});
