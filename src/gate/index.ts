export * from './levels.js';
export * from './verdict.js';
