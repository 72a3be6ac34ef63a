import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RecordingModel, recordingPath } from './recording.js';

/** A fake OpenAI-compatible endpoint on loopback: first a run_code call, then a final answer. */
const seen: Array<{ auth: string | undefined; body: any }> = [];
const server = createServer(async (req: IncomingMessage, res) => {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  if (req.url?.startsWith('/fail/')) {
    res.statusCode = 503;
    res.end('overloaded');
    return;
  }
  const body = JSON.parse(raw);
  seen.push({ auth: req.headers.authorization, body });
  const message =
    seen.length === 1
      ? { role: 'assistant', content: null, tool_calls: [{ id: 'x1', type: 'function', function: { name: 'run_code', arguments: JSON.stringify({ code: 'return 6 * 7', description: 'multiply' }) } }] }
      : { role: 'assistant', content: 'It is 42.' };
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ choices: [{ message }] }));
});

let baseUrl = '';
let dir = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  dir = await mkdtemp(join(tmpdir(), 'concord-record-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('record mode', () => {
  it('asks the endpoint and writes the answers as script steps beside the scenario', async () => {
    const scenario = join(dir, 'answer.yml');
    const model = new RecordingModel({ baseUrl, apiKey: 'k-123', model: 'test-model' }, scenario, 'python');
    const system = [{ id: 'persona', text: 'Be brief.' }];
    const tools = [{ name: 'run_code', description: 'Run Python.', parameters: { type: 'object' } }];
    const first = await model.complete({ system, tools, messages: [{ role: 'user', content: 'What is 6 × 7?' }] });
    expect(first.toolCalls).toEqual([{ id: 'x1', name: 'run_code', arguments: { code: 'return 6 * 7', description: 'multiply' } }]);
    const second = await model.complete({
      system,
      tools,
      messages: [
        { role: 'user', content: 'What is 6 × 7?' },
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: 'x1', content: 'value: 42' },
      ],
    });
    expect(second).toEqual({ content: 'It is 42.', toolCalls: [] });

    expect(seen[0]!.auth).toBe('Bearer k-123');
    expect(seen[0]!.body.model).toBe('test-model');
    expect(seen[0]!.body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(seen[0]!.body.tools[0].function.name).toBe('run_code');
    expect(seen[1]!.body.messages[2].tool_calls[0].function.arguments).toBe('{"code":"return 6 * 7","description":"multiply"}');
    expect(seen[1]!.body.messages[3]).toEqual({ role: 'tool', tool_call_id: 'x1', content: 'value: 42' });

    expect(recordingPath(scenario, 'python')).toBe(join(dir, 'answer.recorded.python.yml'));
    const steps = parse(await readFile(recordingPath(scenario, 'python'), 'utf8'));
    expect(steps).toEqual([
      { user: 'What is 6 × 7?' },
      { assistant: { run_code: { description: 'multiply', python: 'return 6 * 7' } } },
      { final: 'It is 42.' },
    ]);
  });

  it('reports an endpoint error with its status', async () => {
    const model = new RecordingModel({ baseUrl: baseUrl.replace('/v1', '/fail'), model: 'm' }, join(dir, 'x.yml'), 'python');
    await expect(model.complete({ system: [], tools: [], messages: [] })).rejects.toThrow(/fail\/chat\/completions answered 503: overloaded/);
  });
});
