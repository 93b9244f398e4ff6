import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/verdict.js';
import { escapeData, escapeProperty, toAnnotations } from '../../../../src/gate/reports/annotations.js';
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
