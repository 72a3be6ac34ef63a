import { expect, it } from 'vitest';
import { importsNothing } from './import-script.js';

it('reads a block as importing when a line at its top level imports, and only then', () => {
  for (const imports of ['from typing import Any\n', 'import json\n', 'x = 1\nimport a.b as c\n', 'from . import x\n'])
    expect(importsNothing(imports), imports).toBe(false);
  const none = [
    'class A(TypedDict):\n    x: int\n',
    // Prose that begins like an import is not one; an import inside a class is not at the top level.
    '"""Forecasts\nfrom the weather service.\nimport-ready data.\n"""\n',
    'class A:\n    import os\n',
  ];
  for (const source of none) expect(importsNothing(source), source).toBe(true);
});
