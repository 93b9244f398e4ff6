/**
 * Calls through a row (src/http/row-call.ts): the row's path and safety, svc's own body checked
 * against the row's request schema before anything is sent, the answer's top-level type the row's.
 */
import { describe, expect, it } from 'vitest';
import { callRow, sendRow } from '../../../src/http/row-call.js';
import { rowOf } from '../../../src/operations/index.js';
import { EXIT } from '../../../src/core/exit-codes.js';

interface Sent { path: string; body: unknown; opts: Record<string, unknown> }

function fakeClient(answer: unknown) {
  const sent: Sent[] = [];
  return { sent, call: async (path: string, body: unknown, opts: object) => { sent.push({ path, body, opts: opts as Record<string, unknown> }); return answer; } };
}

describe('callRow', () => {
  it("sends to the row's path, safe to retry only when the row reads", async () => {
    const list = fakeClient([{ id: 'org_1' }]);
    expect(await callRow(list, await rowOf('orgs', 'list'), {})).toEqual([{ id: 'org_1' }]);
    expect(list.sent).toEqual([{ path: '/api/v1/orgs/list', body: {}, opts: { safe: true } }]);
    const archive = fakeClient({ ok: true });
    await callRow(archive, await rowOf('issues', 'archive'), { issueId: 'i1' });
    expect(archive.sent[0]).toMatchObject({ path: '/api/v1/issues/archive', opts: { safe: false } });
  });

  it("refuses a body its own row refuses, sending nothing (a fault of svc: exit 70)", async () => {
    const c = fakeClient({});
    const err = await callRow(c, await rowOf('scans', 'list'), { scanId: '' }, { what: 'gate: scans list' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ exitCode: EXIT.INTERNAL });
    expect((err as Error).message).toMatch(/^gate: scans list: svc built a request its operation table refuses \(scanId must not be empty\); nothing was sent$/);
    expect(c.sent).toEqual([]);
  });

  it('takes a body with fields the row does not declare, sent as built (the rows are loose)', async () => {
    const c = fakeClient({ issues: [] });
    await callRow(c, await rowOf('issues', 'search'), { types: ['open'], futureField: 1 });
    expect(c.sent[0].body).toEqual({ types: ['open'], futureField: 1 });
  });

  it('refuses an answer of another top-level type than the row documents (exit 7), naming the call', async () => {
    const orgs = await rowOf('orgs', 'list');
    const search = await rowOf('issues', 'search');
    await expect(callRow(fakeClient({ organizations: [] }), orgs, {}, { what: 'gate: orgs list' }))
      .rejects.toMatchObject({ exitCode: EXIT.BAD_RESPONSE, message: 'gate: orgs list: the answer is an object, not the list the spec documents for orgs list' });
    await expect(callRow(fakeClient([]), search, {})).rejects.toMatchObject({ exitCode: EXIT.BAD_RESPONSE, message: expect.stringMatching(/issues search: the answer is a list, not the object/) });
    await expect(callRow(fakeClient(null), search, {})).rejects.toMatchObject({ message: expect.stringMatching(/the answer is nothing \(null or an empty body\)/) });
    await expect(callRow(fakeClient('done'), search, {})).rejects.toMatchObject({ message: expect.stringMatching(/the answer is a string/) });
    const scans = await rowOf('scans', 'list');
    await expect(callRow(fakeClient([]), scans, {})).rejects.toMatchObject({ message: expect.stringMatching(/not the object the field notes document for scans list/) });
  });

  it('says what the caller knows the user can do instead', async () => {
    await expect(callRow(fakeClient([]), await rowOf('issues', 'get'), { issueId: 'i1' }, { what: 'issues get i1', hint: 'give --no-verify' }))
      .rejects.toMatchObject({ message: 'issues get i1: the answer is a list, not the object the spec documents for issues get', hint: 'give --no-verify' });
  });

  it("takes any JSON where the row shows no fields (the spec does not show the answer)", async () => {
    const create = await rowOf('orgs', 'create');
    expect(await callRow(fakeClient('made'), create, { name: 'x' })).toBe('made');
  });

  it('leaves a raw answer to the caller (the listing engine parses pages itself)', async () => {
    const c = fakeClient('bytes');
    expect(await callRow(c, await rowOf('issues', 'search'), {}, { raw: true })).toBe('bytes');
    expect(c.sent[0].opts).toEqual({ raw: true, safe: true });
  });
});

describe('sendRow', () => {
  it("sends a body as built, to the row's path with its safety, the answer left to the caller", async () => {
    const c = fakeClient([]);
    expect(await sendRow(c, await rowOf('issues', 'search'), { pageSize: 'many' })).toEqual([]);
    expect(c.sent).toEqual([{ path: '/api/v1/issues/search', body: { pageSize: 'many' }, opts: { safe: true } }]);
  });
});
