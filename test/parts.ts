/**
 * The parts of the `in-process` vitest project (vitest.config.ts): SVC_TEST_PART=unit (test/unit and
 * the helpers' own tests: `npm run test:unit`) or e2e (test/e2e: `npm run test:e2e`); unset, every
 * in-process file. A part, not a path filter on the command line: vitest ORs path filters, so
 * `npm run test:unit -- sanitize` would run every unit file. Checked in test/helpers/helpers.test.ts.
 */
export const IN_PROCESS_PARTS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  unit: ['test/unit/**/*.test.ts', 'test/helpers/**/*.test.ts'],
  e2e: ['test/e2e/**/*.test.ts'],
});

/** The in-process project's include for SVC_TEST_PART's value; another value is an error that names the parts. */
export function inProcessInclude(part: string | undefined): string[] {
  if (part === undefined) return Object.values(IN_PROCESS_PARTS).flat();
  if (!Object.hasOwn(IN_PROCESS_PARTS, part)) {
    throw new Error(`SVC_TEST_PART=${part}: give ${Object.keys(IN_PROCESS_PARTS).join(' or ')} (or leave it unset for every in-process file)`);
  }
  return [...IN_PROCESS_PARTS[part]];
}
