export * from './config.js';
export * from './engine.js';
export * from './errors.js';
export * from './game.js';
export * from './hash.js';
export * from './replay.js';
export * from './rng.js';
export * from './version.js';
