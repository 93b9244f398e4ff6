import { describe, expect, it } from 'vitest';
import { GROUPS, commandName, kebab, loadAllOperations, type Operation } from '../../../src/operations/index.js';
import { flagSpecs } from '../../../src/request/flags.js';
import { expectedPaths, fieldNotesPaths, specPaths } from '../../helpers/spec.js';

const ops = await loadAllOperations();
const paths = specPaths();

describe('the operation table', () => {
  it('covers exactly the operations of the spec, plus the three from the field notes', () => {
    // First by name, whatever a row's source says: a row whose path is in neither list (a typo in
    // its name, or an operation missing from the spec) fails naming it, and so does a missing row.
    const expected = expectedPaths();
    if (expected) {
      expect(ops.filter((o) => !expected.includes(o.path)).map((o) => `${o.group} ${o.name} (${o.path})`), 'rows the spec and the field notes do not list').toEqual([]);
      expect(expected.filter((p) => !ops.some((o) => o.path === p)), 'spec/field-notes operations without a row').toEqual([]);
    }
    const fromSpec = ops.filter((o) => o.source === 'spec').map((o) => o.path).sort();
    if (paths) expect(fromSpec, "rows of source 'spec'").toEqual(paths);
    const notes = fieldNotesPaths();
    if (notes) {
      expect(notes.length, 'operations the field notes list as not in the spec').toBeGreaterThan(0);
      expect(ops.filter((o) => o.source === 'notes').map((o) => o.path).sort(), "rows of source 'notes'").toEqual(notes);
    }
  });

  it.skipIf(!paths)('has the per-group counts of the spec (counted from the spec, not written down)', () => {
    for (const g of GROUPS) {
      const inSpec = paths!.filter((p) => p.startsWith(`/api/v1/${g.api}/`)).length;
      expect(ops.filter((o) => o.group === g.name && o.source === 'spec').length, g.name).toBe(inSpec);
      expect(inSpec, g.name).toBeGreaterThan(0);
    }
  });

  it('gives every bulk action its undo: an action of its group that is bulk too and says it undoes it, or why there is none', () => {
    const bulk = ops.filter((o) => o.bulk);
    expect(bulk.map((o) => o.name)).toEqual(expect.arrayContaining(['archive', 'unarchive', 'mark-false-positive', 'mark-true-positive']));
    for (const op of bulk) {
      const undo = op.bulk!.undo;
      if ('by' in undo) {
        const by = ops.find((o) => o.group === op.group && o.name === undo.by);
        expect(by?.bulk, `${op.group} ${op.name}: undone by ${undo.by}, a bulk row of its group`).toBeDefined();
        expect(by!.bulk!.undoes, `${op.group} ${undo.by}: undoes ${op.name}`).toBe(op.name);
      } else {
        expect(undo.none.length, `${op.group} ${op.name}: why there is no undo`).toBeGreaterThan(10);
      }
      if (op.bulk!.undoes) {
        const of = ops.find((o) => o.group === op.group && o.name === op.bulk!.undoes);
        expect(of?.bulk && 'by' in of.bulk.undo && of.bulk.undo.by, `${op.group} ${op.bulk!.undoes}: undone by ${op.name}`).toBe(op.name);
      }
    }
  });

  it('builds each path from the group API segment and the operation name', () => {
    for (const op of ops) {
      const g = GROUPS.find((x) => x.name === op.group)!;
      expect(op.path).toBe(`/api/v1/${g.api}/${op.name}`);
    }
  });

  it('gives every row a summary, at least one example that starts with its command, and default columns', () => {
    for (const op of ops) {
      expect(op.summary.length, op.path).toBeGreaterThan(5);
      expect(op.examples.length, op.path).toBeGreaterThan(0);
      const { name, alias } = commandName(op);
      for (const ex of op.examples) {
        expect(ex.cmd.startsWith(`svc ${op.group} ${name}`) || (alias && ex.cmd.startsWith(`svc ${op.group} ${alias}`)), `${op.path}: ${ex.cmd}`).toBeTruthy();
      }
      expect(Array.isArray(op.columns)).toBe(true);
    }
  });

  it('marks an operation safe to retry exactly when its name reads, and asks before one that deletes or resets', () => {
    // Names say what a call does: list/search/get/branches/repositories/resolve-by-url and the stats
    // read; delete/reset destroy. A row whose effect disagrees with its name fails here, named.
    const reads = (o: Operation) => o.group === 'stats' || /^(list|search|get|get-[a-z-]+|branches|repositories|resolve-by-url)$/.test(o.name);
    const destroys = (o: Operation) => /^(delete|reset)(-|$)/.test(o.name);
    for (const o of ops) {
      expect(o.safe, `${o.group} ${o.name}: effect 'read' exactly when the name reads`).toBe(reads(o));
      expect(o.destructive === true, `${o.group} ${o.name}: effect 'destroy' exactly when the name deletes or resets`).toBe(destroys(o));
    }
    expect(ops.filter(reads).length).toBeGreaterThan(10);
    // The names the rule must catch (a new destroying row is added to the list by its name alone).
    expect(ops.filter(destroys).map((o) => `${o.group} ${o.name}`)).toEqual(expect.arrayContaining(['orgs delete', 'repos delete', 'repos reset-scanner-settings']));
  });

  it('keeps command names unique within a group, kebab-cased, with the API spelling as alias', () => {
    for (const g of GROUPS) {
      const names = ops.filter((o) => o.group === g.name).flatMap((o) => Object.values(commandName(o)).filter(Boolean));
      expect(new Set(names).size).toBe(names.length);
    }
    expect(commandName(ops.find((o) => o.name === 'issuesBySeverity')!)).toEqual({ name: 'issues-by-severity', alias: 'issuesBySeverity' });
    expect(kebab('securityPosture')).toBe('security-posture');
    expect(kebab('set-pr-scanning')).toBe('set-pr-scanning');
  });

  it('carries the spec field types, enums, defaults and minimums into the issue search schema', () => {
    const search = ops.find((o) => o.path === '/api/v1/issues/search')!;
    const specs = Object.fromEntries(flagSpecs(search.request.shape).map((f) => [f.flag, f]));
    expect(specs.page).toMatchObject({ kind: 'integer', min: 1, defaultValue: 1 });
    expect(specs['page-size']).toMatchObject({ kind: 'integer', min: 1, defaultValue: 10 });
    expect(specs['sort-by']).toMatchObject({ kind: 'enum', choices: ['createdAt', 'severity', 'score'], defaultValue: 'score' });
    expect(specs['sort-order']).toMatchObject({ kind: 'enum', choices: ['asc', 'desc'], defaultValue: 'desc' });
    expect(specs['severities-min']).toMatchObject({ kind: 'number', path: ['severities', 'min'] });
    expect(specs['repository-ids']).toMatchObject({ kind: 'array', itemKind: 'string' });
    expect(specs['get-counts'].kind).toBe('boolean');
    expect(Object.keys(specs).sort()).toEqual([
      'code-scan-types', 'get-counts', 'languages', 'organization-id', 'page', 'page-size', 'project-id', 'repository-ids',
      'return-all', 'rule-id', 'scan-id', 'search-query', 'severities-max', 'severities-min', 'sort-by', 'sort-order', 'types',
      'vulnerability-classes',
    ]);
  });

  it('has the spec request fields of the operations whose bodies the spec shows', () => {
    const fields = (path: string) => Object.keys(ops.find((o) => o.path === path)!.request.shape).sort();
    expect(fields('/api/v1/repositories/list')).toEqual(['appId', 'getCounts', 'organizationId', 'searchQuery']);
    expect(fields('/api/v1/repositories/set-pr-scanning')).toEqual(['isPrScanningEnabled', 'organizationId', 'repositoryId']);
    expect(fields('/api/v1/repositories/set-pr-title-template')).toEqual(['organizationId', 'prTitleTemplate', 'repositoryId']);
    expect(fields('/api/v1/issues/update-severity')).toEqual(['issueId', 'organizationId', 'severity']);
    expect(fields('/api/v1/scans/upsert-schedule')).toEqual(['executionCriteriaCrontab', 'isEnabled', 'organizationId', 'repositoryId', 'timezone']);
    expect(fields('/api/v1/stats/timeSaved')).toEqual(['endDate', 'organizationId', 'projectId', 'startDate']);
    expect(fields('/api/v1/stats/topIssues')).toContain('type');
    expect(fields('/api/v1/stats/securityPosture')).toContain('timeGranularity');
    expect(fields('/api/v1/installations/repositories')).toEqual(['appId', 'organizationId']);
  });

  it('keeps unknown fields in responses (lenient parsing)', () => {
    const search = ops.find((o) => o.path === '/api/v1/issues/search')!;
    const parsed = search.response.parse({ issues: [{ id: 'i1', extra: 1 }], totalCount: 1, categoryCounts: { open: 1, notExploitable: 2 } }) as Record<string, unknown>;
    expect((parsed.issues as Record<string, unknown>[])[0].extra).toBe(1);
    expect((parsed.categoryCounts as Record<string, unknown>).notExploitable).toBe(2);
  });
});
