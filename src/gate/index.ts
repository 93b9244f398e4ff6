export * from './levels.js';
export * from './evaluate.js';
