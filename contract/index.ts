// The backend contract: what an app gated by concord contains and who provides what. See docs/contract.md.
export * from './backend.js';
export * from './sdk-section.js';
export type * from './model.js';
export type * from '../runtimes/seam/types.js';
export * from './define-tool.js';
export * from './tool-error.js';
