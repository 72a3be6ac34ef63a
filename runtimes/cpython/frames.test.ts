import { describe, expect, it } from 'vitest';
import { toJsonText } from '../seam/json.js';
import type { JsonValue } from '../seam/types.js';
import { decodeGuestFrame, decodeRunFrame, encodeReplyFrame } from './frames.js';

describe('guest frame codec', () => {
  it('rebuilds well-formed frames and keeps only the fields it knows', () => {
    expect(
      decodeGuestFrame('{"type":"call","call":3,"namespace":"tools","member":"a-b","args":{"x":[1]},"extra":1}'),
    ).toEqual({
      type: 'call',
      call: 3,
      namespace: 'tools',
      member: 'a-b',
      args: { x: [1] },
    });
    expect(
      decodeGuestFrame(
        '{"type":"result","error":{"kind":"exception","message":"m","name":"ValueError","traceback":"t"}}',
      ),
    ).toEqual({
      type: 'result',
      error: { kind: 'exception', message: 'm', name: 'ValueError' },
    });
    expect(decodeGuestFrame('{"type":"ended","status":"exit 0"}')).toEqual({ type: 'ended', status: 'exit 0' });
  });

  it('drops junk and malformed frames without throwing', () => {
    const junk = [
      '',
      'not json',
      '[1,2]',
      'null',
      '"text"',
      '{"type":"unknown"}',
      '{"type":"call","call":"1","namespace":"tools","member":"a","args":{}}',
      '{"type":"call","call":1.5,"namespace":"tools","member":"a","args":{}}',
      '{"type":"call","call":1,"namespace":"tools","member":"a","args":-0}',
      '{"type":"log","line":5}',
      '{"type":"result"}',
      '{"type":"result","error":{"kind":"timeout","message":"only the host decides timeouts"}}',
      '{"type":"result","error":{"kind":"exception"}}',
      '{"type":"started","group":1}',
      '{"type":"ended"}',
      '{"__proto__":{"type":"ended","status":"exit 0"}}',
    ];
    for (const line of junk) expect(decodeGuestFrame(line), line).toBeUndefined();
  });

  it('accepts only call, log and result frames from a run channel', () => {
    expect(decodeRunFrame('{"type":"log","line":"hi"}')).toEqual({ type: 'log', line: 'hi' });
    expect(decodeRunFrame('{"type":"result","value":1}')).toEqual({ type: 'result', value: 1 });
    for (const line of [
      '{"type":"ended","status":"exit 0"}',
      '{"type":"started","group":77}',
      '{"type":"ready","python":"3.11.7"}',
    ]) {
      expect(decodeGuestFrame(line), line).toBeDefined();
      expect(decodeRunFrame(line), line).toBeUndefined();
    }
  });

  it('turns a returned value JavaScript cannot keep into invalid-output', () => {
    const frame = decodeGuestFrame('{"type":"result","value":{"big":1e400}}');
    expect(frame).toMatchObject({ type: 'result', error: { kind: 'invalid-output' } });
    expect(JSON.stringify(frame)).toContain('$.big');
  });

  it('keeps __proto__ an ordinary key of call arguments', () => {
    const frame = decodeGuestFrame(
      '{"type":"call","call":1,"namespace":"tools","member":"m","args":{"__proto__":{"p":1}}}',
    );
    const args = (frame as { args: object }).args;
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
  });

  it('encodes deep tool results without recursion', () => {
    let deep: JsonValue = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    // The bridge refuses a result this deep (BRIDGE_LIMITS); the codec still writes one without recursing.
    const line = encodeReplyFrame(7, { okJson: toJsonText(deep) });
    expect(line.startsWith('{"type":"reply","call":7,"ok":[[[')).toBe(true);
    expect(line.endsWith(']]]}\n')).toBe(true);
  });
});
