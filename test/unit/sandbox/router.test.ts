import { describe, expect, it } from 'vitest';
import { loadAllOperations } from '../../../src/operations/index.js';
import { HANDLERS, buildRoutes, validate } from '../../../src/sandbox/router.js';
import { seedWorld } from '../../../src/sandbox/data/seed.js';
import { Store } from '../../../src/sandbox/state.js';
import { HttpError } from '../../../src/sandbox/http-error.js';
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

describe('crontab and timezone checks (the row\'s schema: croner and Intl, as svc checks before sending)', () => {
  it('accepts common expressions and answers 400 naming the broken field', async () => {
    const ops = await loadAllOperations();
    const store = new Store(seedWorld({ seed: 1, repos: 2, issues: 5 }));
    const routes = buildRoutes(ops, store, { scanDurationMs: 0, patchDelayMs: 0 });
    const upsert = (fields: Record<string, unknown>) => routes.get('/api/v1/scans/upsert-schedule')!.handle({ repositoryId: store.repos[0].id, ...fields });
    for (const ok of ['0 3 * * 1', '*/15 * * * *', '30 1 * * 1-5', '0 4 1 jan,jul *', '0 0 * * sun']) {
      upsert({ executionCriteriaCrontab: ok });
      expect(store.schedule(store.repos[0].id)?.executionCriteriaCrontab, ok).toBe(ok);
    }
    for (const bad of ['0 3 * *', '60 * * * *', '0 25 * * *', '*/0 * * * *']) {
      expect(() => upsert({ executionCriteriaCrontab: bad }), bad).toThrow(/invalid field 'executionCriteriaCrontab': is not a valid crontab/);
    }
    upsert({ timezone: 'Europe/Berlin' });
    expect(store.schedule(store.repos[0].id)?.timezone).toBe('Europe/Berlin');
    expect(() => upsert({ timezone: 'Mars/Olympus' })).toThrow(/invalid field 'timezone': is not a time zone name/);
  });
});
