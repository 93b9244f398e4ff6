import { describe, expect, it } from 'vitest';
import { loadAllOperations } from '../../../src/operations/index.js';
import { HANDLERS, buildRoutes, validate } from '../../../src/sandbox/router.js';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { Store } from '../../../src/sandbox/state.js';
import { HttpError } from '../../../src/sandbox/errors.js';
import { cronProblem, isTimezone } from '../../../src/sandbox/cron.js';
import { row } from '../../../src/operations/row.js';
import { body, okResponse } from '../../../src/operations/fields.js';
import { expectedPaths } from '../../helpers/spec.js';

describe('sandbox routes', () => {
  it('have a handler for every operation of the table, and no handler without an operation', async () => {
    const ops = await loadAllOperations();
    expect(Object.keys(HANDLERS).sort()).toEqual(ops.map((o) => o.path).sort());
    const routes = buildRoutes(ops, new Store(seedWorld({ seed: 1, repos: 2, issues: 5 })), { scanDurationMs: 0, patchDelayMs: 0 });
    expect([...routes.keys()].sort()).toEqual(expectedPaths() ?? ops.map((o) => o.path).sort());
  });

  it('every row has a handler: a missing one fails naming the row and where handlers live', async () => {
    for (const op of await loadAllOperations()) {
      expect(HANDLERS[op.path], `no sandbox handler for ${op.group} ${op.name} (${op.path}): add one to src/sandbox/handlers/`).toBeTypeOf('function');
    }
    // The same check at sandbox start-up, shown with a row that has none.
    const dummy = row('issues', 'no-handler-yet', { effect: 'read', summary: 'A row without a handler', request: body({}), response: okResponse, columns: [], examples: [] });
    expect(() => buildRoutes([dummy], new Store(seedWorld({ seed: 1, repos: 1, issues: 1 })), { scanDurationMs: 0, patchDelayMs: 0 })).toThrow('sandbox: no handler for /api/v1/issues/no-handler-yet');
  });

  it('validate names the field and applies nothing unknown', async () => {
    const search = (await loadAllOperations()).find((o) => o.path === '/api/v1/issues/search')!;
    const fail = (body: Record<string, unknown>) => {
      try { validate(search.request, body); } catch (e) { return (e as HttpError).message; }
      return 'passed';
    };
    expect(fail({ pageSize: 0 })).toBe("invalid field 'pageSize': must be at least 1");
    expect(fail({ languages: 'go' })).toMatch(/^invalid field 'languages': expected an array/);
    expect(fail({ types: ['nope'] })).toMatch(/^invalid field 'types\.0': must be one of: open/);
    expect(fail({ organizationId: '' })).toBe("invalid field 'organizationId': must not be empty");
    expect(validate(search.request, { extra: 1, page: 2 })).toMatchObject({ extra: 1, page: 2 });
  });

  it('required fields of the table are enforced with 400', async () => {
    const ops = await loadAllOperations();
    const routes = buildRoutes(ops, new Store(seedWorld({ seed: 1, repos: 2, issues: 5 })), { scanDurationMs: 0, patchDelayMs: 0 });
    expect(() => routes.get('/api/v1/scans/start')!.handle({ repositoryIds: [] })).toThrow("missing required field 'repositoryIds'");
    expect(() => routes.get('/api/v1/repositories/resolve-by-url')!.handle({ repositoryUrl: 'x' })).toThrow("missing required field 'vcs'");
  });
});

describe('crontab and timezone checks', () => {
  it('accepts common expressions and names the broken field', () => {
    for (const ok of ['0 3 * * 1', '*/15 * * * *', '30 1 * * 1-5', '0 4 1 jan,jul *', '0 0 * * sun']) expect(cronProblem(ok), ok).toBeUndefined();
    expect(cronProblem('0 3 * *')).toMatch(/5 fields/);
    expect(cronProblem('60 * * * *')).toMatch(/minute '60'/);
    expect(cronProblem('0 25 * * *')).toMatch(/hour/);
    expect(cronProblem('*/0 * * * *')).toMatch(/step/);
    expect(isTimezone('Europe/Berlin')).toBe(true);
    expect(isTimezone('Mars/Olympus')).toBe(false);
  });
});
