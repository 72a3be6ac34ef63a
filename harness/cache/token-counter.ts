import { importOptional, MissingPackageError } from '../../runtimes/seam/optional-package.js';
import { sha256, type VerdictCache } from './verdict-cache.js';

/** The tokenizer the SDK is measured with: OpenAI's current encoding, as `js-tiktoken` ships it. */
export const SDK_ENCODING = 'o200k_base';

export interface SdkMeasure {
  bytes: number;
  tokens: number;
}

/** What one pair's `tools:sdk` block costs every request, and what the committed snapshot of it cost. */
export interface SdkSize extends SdkMeasure {
  language: string;
  /** How many tools the SDK declares (the app's registered tools), when known. */
  tools?: number;
  /** The committed `tools-sdk.*` snapshot of the pair; absent when there is none yet. */
  committed?: SdkMeasure;
}

type Encode = (text: string) => number;

/**
 * The encoder, loaded once per process on first use (a few MB of ranks, about a second of CPU): it depends on
 * nothing but the installed js-tiktoken. A missing package is the MissingPackageError its import threw.
 */
let loading: Promise<Encode | MissingPackageError> | undefined;

function encoder(): Promise<Encode | MissingPackageError> {
  loading ??= Promise.all([
    importOptional('js-tiktoken', 'the SDK cost in tokens', () => import('js-tiktoken/lite')),
    importOptional('js-tiktoken', 'the SDK cost in tokens', () => import('js-tiktoken/ranks/o200k_base')),
  ]).then(
    ([{ Tiktoken }, { default: ranks }]) => {
      const tiktoken = new Tiktoken(ranks);
      // Text that spells a special token (`<|endoftext|>`) is counted as the text it is.
      return (value: string) => tiktoken.encode(value, [], []).length;
    },
    (error: unknown) => {
      if (error instanceof MissingPackageError) return error;
      throw error;
    },
  );
  return loading;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/**
 * Tokens of texts in SDK_ENCODING, for one command (a session owns one). A count is kept in the verdict cache
 * by the text's hash, so a gate whose SDKs did not change never loads the encoder. js-tiktoken is an optional
 * peer: without it (and without a cached count) nothing is counted and `missing` says why.
 */
export class TokenCounter {
  private readonly counted = new Map<string, number>();
  private missingReason: string | undefined;

  constructor(private readonly cache?: VerdictCache) {}

  /** Why a text was not counted (js-tiktoken is not installed), once a count was asked for; else undefined. */
  get missing(): string | undefined {
    return this.missingReason;
  }

  async count(text: string): Promise<number | undefined> {
    const known = this.counted.get(text);
    if (known !== undefined) return known;
    const key = [SDK_ENCODING, sha256(text)];
    let tokens = await this.cache?.get('tokens', key, isCount);
    if (tokens === undefined) {
      const encode = await encoder();
      if (encode instanceof MissingPackageError) {
        this.missingReason = encode.message;
        return undefined;
      }
      tokens = encode(text);
      await this.cache?.put('tokens', key, tokens);
    }
    this.counted.set(text, tokens);
    return tokens;
  }

  async measure(text: string): Promise<SdkMeasure | undefined> {
    const tokens = await this.count(text);
    return tokens === undefined ? undefined : { bytes: Buffer.byteLength(text, 'utf8'), tokens };
  }

  /** The size of a pair's SDK block (`current`) and of its committed snapshot; undefined without the tokenizer. */
  async measureSdk(language: string, current: string, committed: string | undefined): Promise<SdkSize | undefined> {
    const now = await this.measure(current);
    if (now === undefined) return undefined;
    const before = committed === undefined ? undefined : await this.measure(committed);
    return { language, ...now, ...(before === undefined ? {} : { committed: before }) };
  }
}
