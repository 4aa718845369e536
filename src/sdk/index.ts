export * from './messages.js';
export * from './serve.js';
