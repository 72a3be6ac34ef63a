import { fixturePlugin, objectArgs } from './define.js';

/** Tools whose names cannot be attributes in Python or plain members in every language: reached by subscript. */

const echo = (tool: string) => async (args: import('../../runtimes/seam/types.js').JsonValue) => ({
  tool,
  args: objectArgs(tool, args),
});

const textArg = {
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
  additionalProperties: false,
};

const echoed = {
  type: 'object',
  properties: {
    tool: { type: 'string' },
    args: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  required: ['tool', 'args'],
};

export default fixturePlugin('fixture-exotic', [
  {
    name: 'weather-alerts',
    description: 'A dashed name.',
    parameters: textArg,
    output: echoed,
    execute: echo('weather-alerts'),
  },
  { name: 'class', description: 'A keyword in Python.', parameters: textArg, output: echoed, execute: echo('class') },
  {
    name: '2fa.verify',
    description: 'Starts with a digit and holds a dot.',
    parameters: textArg,
    output: echoed,
    execute: echo('2fa.verify'),
  },
  {
    name: '__proto__',
    description: 'A name JavaScript objects treat specially.',
    parameters: textArg,
    output: echoed,
    execute: echo('__proto__'),
  },
]);
