/**
 * conf's class by name. dist/svc.cjs loads what a plain call never runs from dist/svc-more.cjs by a
 * module of src/ and its named exports (scripts/bundle-chunks.mjs): a package's default export
 * imported there directly would arrive as the whole module, not the class.
 */
export { default as Conf } from 'conf';
