// The backend contract: what an app gated by concord contains and who provides what. See docs/contract.md.

export type * from '../runtimes/seam/types.js';
export * from './backend.js';
export * from './define-tool.js';
export type * from './host.js';
export type * from './model.js';
export * from './sdk-section.js';
export * from './tool-error.js';
