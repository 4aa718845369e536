export * from './messages.js';
export type * from './init-answer.js';
export * from './serve.js';
