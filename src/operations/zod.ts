/**
 * The part of zod/mini svc uses, by name. Every module imports zod through here, never the package's
 * namespace: a namespace that escapes (a dynamic `import('zod/mini')`, or `z` passed around) keeps all
 * of zod in the bundle, its 40-odd message locales too (~430 KB of the ~1.5 MB dist/svc.cjs, before
 * this module); named imports let esbuild keep only these. `node scripts/build.mjs --sizes` shows the
 * bundle's bytes per package.
 */
export {
  _default, array, boolean, check, enum, globalRegistry, int, looseObject, minLength, minimum,
  nullable, nullish, number, optional, refine, regex, string,
} from 'zod/mini';
export type { ZodMiniObject, ZodMiniType, core, output } from 'zod/mini';
