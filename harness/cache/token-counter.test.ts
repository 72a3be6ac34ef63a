import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_ENCODING, TokenCounter } from './token-counter.js';
import { sha256, VerdictCache } from './verdict-cache.js';

describe('the token counter', () => {
  it('counts o200k_base tokens and UTF-8 bytes, a special token spelled in text included', async () => {
    const measured = (await new TokenCounter().measureSdk(
      'python',
      'class Money(TypedDict):\n    amount: int\n',
      'é<|endoftext|>',
    ))!;
    expect(SDK_ENCODING).toBe('o200k_base');
    expect(measured.bytes).toBe(40);
    expect(measured.tokens).toBeGreaterThan(5);
    expect(measured.tokens).toBeLessThan(20);
    expect(measured.committed!.bytes).toBe(15);
    expect(measured.committed!.tokens).toBeGreaterThan(1);
  });

  it("takes a count from the verdict cache by the text's hash, and stores what it had to count", async () => {
    const root = await mkdtemp(join(tmpdir(), 'concord-sdk-tokens-'));
    try {
      const cache = new VerdictCache(root);
      const cached = 'class Cached(TypedDict):\n    amount: int\n';
      // A count no tokenizer would give: only the cache can be its source.
      await cache.put('tokens', [SDK_ENCODING, sha256(cached)], 424_242);
      const fresh = 'class Fresh(TypedDict):\n    amount: int\n';
      const measured = (await new TokenCounter(cache).measureSdk('python', cached, fresh))!;
      expect(measured.tokens).toBe(424_242);
      expect(measured.committed!.tokens).toBeLessThan(20);
      expect(await cache.get('tokens', [SDK_ENCODING, sha256(fresh)], (v): v is number => typeof v === 'number')).toBe(
        measured.committed!.tokens,
      );
      expect(cache.stats).toMatchObject({ hits: 2, misses: 1, stored: 2, rejected: 0 });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('counts each text once per counter, and a second counter counts afresh', async () => {
    const first = new TokenCounter();
    const text = 'class Once(TypedDict):\n    amount: int\n';
    const tokens = await first.count(text);
    expect(tokens).toBeGreaterThan(3);
    expect(await first.count(text)).toBe(tokens);
    expect(first.missing).toBeUndefined();
    expect(await new TokenCounter().count(text)).toBe(tokens);
  });
});
