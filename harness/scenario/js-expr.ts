import type { ScalarTag } from 'yaml';
import { stringifyString } from 'yaml/util';

/**
 * cordis's loader evaluates a config value tagged `!!js` (`region: !!js process.env.REGION`) as the app
 * starts, and holds it meanwhile as `{ __jsExpr }`. A scenario's composition keeps such a value the same way
 * and the assembled `cordis.yml` writes it back with its tag, so the app a gate boots evaluates it as the
 * backend's own `cordis.yml` would; the snapshot shows the expression, never what it evaluated to.
 */
export interface JsExpr {
  __jsExpr: string;
}

export const isJsExpr = (value: unknown): value is JsExpr =>
  typeof value === 'object' &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as JsExpr).__jsExpr === 'string';

export const JS_EXPR_TAG: ScalarTag = {
  tag: 'tag:yaml.org,2002:js',
  identify: isJsExpr,
  resolve: (source) => ({ __jsExpr: source }),
  stringify: ({ comment, value }, ctx, onComment, onChompKeep) =>
    stringifyString({ comment, value: (value as JsExpr).__jsExpr }, ctx, onComment, onChompKeep),
};
