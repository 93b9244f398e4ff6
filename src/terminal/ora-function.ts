/**
 * ora by name: loaded from dist/svc-more.cjs through this module of src/ (scripts/bundle-chunks.mjs),
 * as a package's default export imported directly would arrive as the whole module.
 */
export { default as ora } from 'ora';
