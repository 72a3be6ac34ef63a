import { describe, expect, it } from 'vitest';
import { renderPythonSdk } from './python/index.js';
import { toolDescription } from './tool-description.js';
import { renderTypeScriptSdk } from './typescript/index.js';

const example = [
  'Looks a parcel up by its tracking code.',
  '',
  '**Example:**',
  '```json',
  '{',
  '  "code": "PX 1042",',
  '  "note": "say \\"hi there\\"\\n  twice",',
  '  "legs": [ 1, 2 ],',
  '  "zeta": true, "alpha": null',
  '}',
  '```',
  'Returns the parcel.',
].join('\n');

describe('a tool description', () => {
  it('writes a fenced JSON example on one line, strings, keys and their order as the author wrote them', () => {
    const written = toolDescription(example);
    expect(written).toBe(
      [
        'Looks a parcel up by its tracking code.',
        '',
        '**Example:**',
        '```json',
        '{"code":"PX 1042","note":"say \\"hi there\\"\\n  twice","legs":[1,2],"zeta":true,"alpha":null}',
        '```',
        'Returns the parcel.',
      ].join('\n'),
    );
    // The same value, to the last key.
    const body = (text: string) => text.split('```json\n')[1]!.split('\n```')[0]!;
    expect(JSON.stringify(JSON.parse(body(written)))).toBe(JSON.stringify(JSON.parse(body(example))));
  });

  it('keeps an indented example under its list item, and each of two examples to itself', () => {
    const text = [
      '- first:',
      '  ```json',
      '  { "a": 1 }',
      '  ```',
      '- second:',
      '  ```json',
      '  [ "b" ]',
      '  ```',
    ].join('\n');
    expect(toolDescription(text)).toBe(
      ['- first:', '  ```json', '  {"a":1}', '  ```', '- second:', '  ```json', '  ["b"]', '  ```'].join('\n'),
    );
  });

  it('leaves as it is a block that is not JSON, a fence of another language, and text without fences', () => {
    const notJson = ['```json', '{ "a": 1, // the first', '  "b": 2 }', '```'].join('\n');
    const cut = ['```json', '{ "a": [1, 2, ...] }', '```'].join('\n');
    const python = ['```python', 'await tools.track({ "code": "PX" })', '```'].join('\n');
    const unclosed = ['```json', '{ "a": 1 }'].join('\n');
    for (const text of [notJson, cut, python, unclosed, 'Plain words, {"not": "fenced"}.'])
      expect(toolDescription(text)).toBe(text);
  });

  it('reads fences on Windows line ends, the lines around them as they were', () => {
    expect(toolDescription('See:\r\n```json\r\n{ "a": 1 }\r\n```\r\nThen:\r\n```json\r\n[ 2 ]\r\n```\r\nEnd.')).toBe(
      'See:\r\n```json\n{"a":1}\n```\nThen:\r\n```json\n[2]\n```\nEnd.',
    );
  });

  it('leaves an opening fence that nothing closes, and reads the blocks after one that does not parse', () => {
    const unclosed = ['```json', '{ "a": 1 }', 'and more words'].join('\n');
    expect(toolDescription(unclosed)).toBe(unclosed);
    const afterBroken = ['```json', '{ "a": 1, }', '```', '```json', '{ "b": 2 }', '```'].join('\n');
    expect(toolDescription(afterBroken)).toBe(
      ['```json', '{ "a": 1, }', '```', '```json', '{"b":2}', '```'].join('\n'),
    );
    // An opening inside a block that stays as written starts one of its own.
    const inner = ['```json', '{ cut', '```json', '{ "b": 2 }', '```'].join('\n');
    expect(toolDescription(inner)).toBe(['```json', '{ cut', '```json', '{"b":2}', '```'].join('\n'));
    // Many openings, none closed; then one closing after them all, round a body that does not parse.
    const hostile = Array.from({ length: 2_000 }, () => '```json').join('\n');
    expect(toolDescription(hostile)).toBe(hostile);
    expect(toolDescription(`${hostile}\n{ cut\n\`\`\``)).toBe(`${hostile}\n{ cut\n\`\`\``);
  });

  it('is empty when the description is not a string', () => {
    expect(toolDescription(undefined)).toBe('');
    expect(toolDescription(42)).toBe('');
  });

  it('is what both SDKs write', () => {
    const tools = [{ name: 'track', description: example, parameters: { type: 'object', properties: {} } }];
    const line = '{"code":"PX 1042","note":"say \\"hi there\\"\\n  twice","legs":[1,2],"zeta":true,"alpha":null}';
    expect(renderTypeScriptSdk(tools)).toContain(line);
    // In a Python docstring a backslash is written twice.
    expect(renderPythonSdk(tools)).toContain(line.replaceAll('\\', '\\\\'));
    expect(renderPythonSdk(tools)).not.toContain('"code": "PX 1042"');
  });
});
