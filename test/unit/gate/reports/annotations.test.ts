import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { annotationText, escapeData, escapeLogissue, escapeProperty, mostSevereAnnotationGroups, toAnnotations } from '../../../../src/gate/reports/annotations.js';
import { ALL, cweOnly, hostile, sqlInjection } from '../../../fixtures/reports/issues.js';

/** Parses `::kind props::message` back, undoing the escapes. */
function parseCommand(line: string): { kind: string; props: Record<string, string>; message: string } {
  const m = /^::(\w+) ([^:]*)::(.*)$/.exec(line);
  if (!m) throw new Error(`not a workflow command: ${line}`);
  const unescape = (s: string) =>
    s.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const props: Record<string, string> = {};
  for (const pair of m[2].split(',')) {
    const eq = pair.indexOf('=');
    props[pair.slice(0, eq)] = unescape(pair.slice(eq + 1));
  }
  return { kind: m[1], props, message: unescape(m[3]) };
}

describe('toAnnotations', () => {
  it('emits ::error for breaking issues, ::warning for other issues at medium or above, ::notice for the rest', () => {
    const out = toAnnotations(evaluateGate(ALL, { failOn: 'critical' }));
    expect(out.endsWith('\n')).toBe(true);
    const lines = out.trimEnd().split('\n');
    const kinds = lines.map((l) => parseCommand(l).kind);
    // errors: sql (95), noscore; warnings: nofile (high), hostile (high), cweOnly (medium); notice: low
    expect(kinds).toEqual(['error', 'error', 'warning', 'warning', 'warning', 'notice']);
    expect(parseCommand(lines[5]).props.title).toBe('[low] Verbose error');
  });

  it('writes file, lines and columns, and an escaped title', () => {
    const [line] = toAnnotations(evaluateGate([sqlInjection], { failOn: 'high' })).trimEnd().split('\n');
    expect(line).toBe(
      '::error file=src/db/users.ts,line=42,endLine=44,col=5,endColumn=30,title=[critical] SQL injection in user lookup::' +
        'User input reaches a raw query.%0A(score 95, critical, issue iss-sql, breaks the gate)',
    );
  });

  it('leaves out a line that is not a positive integer', () => {
    const [line] = toAnnotations(evaluateGate([cweOnly], { failOn: 'medium' })).trimEnd().split('\n');
    expect(line.startsWith('::error file=lib/files.js,title=')).toBe(true);
  });

  it('escapes hostile text so it cannot end the command or add properties', () => {
    const out = toAnnotations(evaluateGate([hostile], { failOn: 'high' }));
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const cmd = parseCommand(lines[0]);
    expect(Object.keys(cmd.props)).toEqual(['file', 'line', 'col', 'title']);
    expect(cmd.props.file).toBe('web/a b#c%d/x,y:z.ts');
    expect(cmd.props.title).toContain('a:b,c');
    expect(cmd.message).toContain('pipe\nline2 %0A 50%');
    expect(lines[0]).not.toMatch(/\r/);
    expect(lines[0]).toContain('line2 %250A 50%25');
  });

  it('escapes runner commands in every property as in the message: a file named ##vso[ or ##[ starts none', () => {
    const evil = { ...sqlInjection, affectedFile: 'src/##vso[task.setvariable variable=x]1/##[error]a.ts', generatedTitle: 'T ##VSO[task.complete result=Succeeded]' };
    const [line] = toAnnotations(evaluateGate([evil], { failOn: 'high' })).trimEnd().split('\n');
    expect(line).not.toMatch(/##(vso)?\[/i);
    const cmd = parseCommand(line);
    expect(cmd.props.file).toBe('src/##vso\\u005btask.setvariable variable=x]1/##\\u005berror]a.ts');
    expect(cmd.props.title).toBe('[critical] T ##VSO\\u005btask.complete result=Succeeded]');
  });

  it('is empty when there is no open issue', () => {
    expect(toAnnotations(evaluateGate([]))).toBe('');
  });
});

describe('escaping', () => {
  it('escapes data', () => {
    expect(escapeData('50% a\r\nb:c,d')).toBe('50%25 a%0D%0Ab:c,d');
  });

  it('escapes properties', () => {
    expect(escapeProperty('50% a\r\nb:c,d')).toBe('50%25 a%0D%0Ab%3Ac%2Cd');
  });
});

describe('annotationText in logging-command syntax (##vso[task.logissue])', () => {
  const groupsOf = (r: ReturnType<typeof evaluateGate>) => mostSevereAnnotationGroups(r, 1000).groups;

  /** Parses `##vso[task.logissue k=v;k=v]message` back as the agent does, undoing the escapes. */
  function parseLogissue(line: string): { props: Record<string, string>; message: string } {
    const m = /^##vso\[task\.logissue ([^\]]*)\](.*)$/.exec(line);
    if (!m) throw new Error(`not a logging command: ${line}`);
    const unescape = (s: string) => s.replace(/%3B/g, ';').replace(/%5D/g, ']').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%AZP25/g, '%');
    const props: Record<string, string> = {};
    for (const pair of m[1].split(';')) {
      const eq = pair.indexOf('=');
      props[pair.slice(0, eq)] = unescape(pair.slice(eq + 1));
    }
    return { props, message: unescape(m[2]) };
  }

  it('writes type, sourcepath, linenumber, columnnumber and code; errors and warnings only (no notice)', () => {
    const groups = groupsOf(evaluateGate(ALL, { failOn: 'critical' }));
    const lines = annotationText(groups, 'logissue').trimEnd().split('\n');
    expect(lines).toHaveLength(groups.error.length + groups.warning.length);
    expect(lines.filter((l) => l.includes('type=error;'))).toHaveLength(groups.error.length);
    const [first] = annotationText(groupsOf(evaluateGate([sqlInjection], { failOn: 'high' })), 'logissue').trimEnd().split('\n');
    const sql = parseLogissue(first);
    expect(first).toBe('##vso[task.logissue type=error;sourcepath=src/db/users.ts;linenumber=42;columnnumber=5;code=iss-sql]'
      + '[critical] SQL injection in user lookup: User input reaches a raw query. (score 95, critical, issue iss-sql, breaks the gate)');
    expect(sql.props).toEqual({ type: 'error', sourcepath: 'src/db/users.ts', linenumber: '42', columnnumber: '5', code: 'iss-sql' });
  });

  it('escapes ; ] % CR LF so a hostile path, title or id cannot end the command or add properties', () => {
    const evil = { ...hostile, id: 'x;type=error]##vso[task.setvariable variable=A]1', affectedFile: 'a;b]c%d\ne.ts', generatedTitle: 'T]x;y%z\r\n##vso[task.complete result=Succeeded]' };
    const [line, ...rest] = annotationText(groupsOf(evaluateGate([evil], { failOn: 'high' })), 'logissue').trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(line).not.toMatch(/[\r\u0000-\u0008\u001b]/);
    const cmd = parseLogissue(line);
    expect(Object.keys(cmd.props)).toEqual(['type', 'sourcepath', 'linenumber', 'columnnumber', 'code']);
    expect(cmd.props.type).toBe('error');
    expect(cmd.props.sourcepath).toBe('a;b]c%d\ne.ts');
    expect(cmd.props.code).toBe('x;type=error]##vso\\u005btask.setvariable variable=A]1');
    expect(line.slice(1)).not.toContain('##vso[');
    expect(cmd.message).toContain('T]x;y%z');
    expect(escapeLogissue('50% ;]\r\n', true)).toBe('50%AZP25 %3B%5D%0D%0A');
    expect(escapeLogissue('50% ;]\r\n', false)).toBe('50%AZP25 ;]%0D%0A');
  });
});
