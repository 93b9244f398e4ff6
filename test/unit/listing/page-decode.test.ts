/**
 * A long listing's pages: parsed when their turn comes, item by item, into pooled buffers that are
 * used again; the values are exactly JSON.parse's, and anything a byte scan could get wrong is
 * parsed whole.
 */
import { Writable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RawAnswer } from '../../../src/http/raw-answer.js';
import { BufferPool } from '../../../src/http/buffer-pool.js';
import { decodePage, pageSource, releasePage } from '../../../src/listing/page-decode.js';
import { jsonMembersFromSource, ndjsonFromSource } from '../../../src/listing/stream-out.js';
import { writeOut } from '../../../src/output/write.js';
import { InterruptedError } from '../../../src/core/errors.js';
import { itemSpans } from '../../../src/listing/item-spans.js';
import { checkKeysOnce } from '../../../src/answers/json-text.js';
import { readOnly } from '../../../src/answers/doubts.js';

/** A pool that records what is given back. */
class Recording extends BufferPool {
  given: Buffer[] = [];
  override give(buf: Buffer): void {
    this.given.push(buf);
    super.give(buf);
  }
}

function answer(text: string, pool?: Recording): RawAnswer {
  const bytes = Buffer.from(text);
  return new RawAnswer(bytes, 'issues/search', 200, 'application/json', (t) => t, pool && { buf: bytes, from: pool });
}

const PAGES = [
  '{"issues":[{"id":"a","t":"] } [ { \\" \\\\"},{"id":"b","n":[1,{"x":"}"}],"u":"\u00fcn\u2028"}],"totalCount":2,"page":1}',
  '{"totalCount":3,"issues":[1,"two",null]}',
  '{"issues":[]}',
  '{ "issues" : [ {"id":1}, {\n "id": 2 } ] , "totalCount" : 2 }',
  // A key written with escapes: parsed whole.
  '{"iss\\u0075es":[{"id":3}],"totalCount":1}',
  '[1,2]',
  '7',
];

describe('decodePage', () => {
  it('gives exactly what JSON.parse of the whole answer gives, keys in the same order', () => {
    for (const text of PAGES) {
      const data = decodePage(answer(text), 'issues');
      expect(data, text).toEqual(JSON.parse(text));
      if (data && typeof data === 'object') expect(Object.keys(data), text).toEqual(Object.keys(JSON.parse(text)));
    }
  });

  it('refuses a key given twice, the list\'s or an item\'s, escaped or not (issue 21: JSON.parse would keep the last)', () => {
    for (const text of ['{"issues":[{"id":1}],"issues":[{"id":2}]}', '{"iss\\u0075es":[{"id":3}],"issues":[{"id":4}]}', '{"issues":[{"id":1,"score":9,"score":1}]}', '{"totalCount":1,"issues":[{"id":1}],"totalCount":0}']) {
      expect(() => decodePage(answer(text), 'issues'), text).toThrow(/twice/);
    }
  });

  it('anything else than a raw answer is returned as it is', () => {
    const parsed = { issues: [] };
    expect(decodePage(parsed, 'issues')).toBe(parsed);
  });

  it('a nested list (dotted key) is parsed whole and not offered for copying', () => {
    const text = '{"data":{"issues":[{"id":1}]}}';
    const data = decodePage(answer(text), 'data.issues');
    expect(data).toEqual(JSON.parse(text));
    expect(pageSource(data)).toBeUndefined();
  });

  it('an item that is not JSON fails as the whole answer would ("not valid JSON"), and its buffer goes back', () => {
    for (const text of ['{"issues":[{"id":1},{"id":2,bad}],"totalCount":2}', '{"issues":[{"id":1}],"totalCount":tru}', '{"issues":[{"id":1}]', '{"issues":[{"id":01}]}']) {
      const pool = new Recording();
      expect(() => decodePage(answer(text, pool), 'issues'), text).toThrow(/issues\/search: the response is not valid JSON \(application\/json, \d+ characters/);
      expect(pool.given, text).toHaveLength(1);
    }
  });

  it('accepts exactly what JSON.parse of the whole answer accepts, brackets and commas included', () => {
    const texts = [
      '{"issues":[{"id":[1}],"t":1}', '{"issues":[{"id":1}}],"t":1}', '{"issues":[{"id":1}]]}', '{"issues":[{"id":1},]}',
      '{"issues":[,{"id":1}]}', '{"issues":[{"id":1} {"id":2}]}', '{"issues":[{"id":1}],}', '{"issues":[{"id":1}]} x',
      '{"issues":[{"id":"a\u0000"}]}', '{"issues":[{"id":"\\q"}]}', '{"issues":["a",1,true,null,[],{}]}', ' {"issues":[{}]} ',
    ];
    for (const text of texts) {
      let whole: unknown;
      let wholeFails = false;
      try { whole = JSON.parse(text); } catch { wholeFails = true; }
      if (wholeFails) expect(() => decodePage(answer(text), 'issues'), text).toThrow(/not valid JSON/);
      else expect(decodePage(answer(text), 'issues'), text).toEqual(whole);
    }
  });

  it('slim: of each item but the first only the id and the fields to keep, and only for compact items (the bytes are written as they are)', () => {
    const compact = '{"issues":[{"id":"a","x":[1,2]},{"id":"b","y":{"z":1}},{"issueId":"c","repositoryId":"r","t":"u"},"s",3],"totalCount":5}';
    // The first whole: the pager compares it with the page before's first (a service ignoring 'page').
    expect(decodePage(answer(compact), 'issues', { id: 'id' })).toEqual({ issues: [{ id: 'a', x: [1, 2] }, { id: 'b' }, {}, 's', 3], totalCount: 5 });
    expect(decodePage(answer(compact), 'issues', {})).toEqual({ issues: [{ id: 'a', x: [1, 2] }, {}, {}, 's', 3], totalCount: 5 });
    // The id's aliases and the scope check's fields are kept where the item has them.
    expect(decodePage(answer(compact), 'issues', { id: 'id', keep: ['issueId', 'repositoryId'] })).toEqual({ issues: [{ id: 'a', x: [1, 2] }, { id: 'b' }, { issueId: 'c', repositoryId: 'r' }, 's', 3], totalCount: 5 });
    // White space between items or inside one: every item whole (the writer serializes those).
    for (const spaced of ['{"issues":[{"id":"a"}, {"id":"b"}]}', '{"issues":[{"id": "a"},{"id":"b"}]}']) {
      expect(decodePage(answer(spaced), 'issues', { id: 'id' }), spaced).toEqual(JSON.parse(spaced));
    }
    // Slim still parses every item: a broken one fails.
    expect(() => decodePage(answer('{"issues":[{"id":"a"},{"id":"b",}]}'), 'issues', { id: 'id' })).toThrow(/not valid JSON/);
  });

  it('an answer that is not valid UTF-8 is parsed as text (U+FFFD) and never copied: NDJSON serializes it', () => {
    const bytes = Buffer.concat([Buffer.from('{"issues":[{"id":"a","t":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"},{"id":"b"}],"totalCount":2}')]);
    const data = decodePage(new RawAnswer(bytes, 'issues/search', 200, 'application/json', (t) => t), 'issues', { id: 'id' }) as { issues: Array<{ t?: string }> };
    expect(data.issues[0].t).toBe('\ufffd\ufffd');
    expect(pageSource(data)).toBeUndefined();
  });

  it('NDJSON of a compact page is a view of the page\'s own bytes, each item a line', () => {
    const text = '{"issues":[{"id":"a","t":"x,y"},{"id":"b"},[1,2],"s"],"totalCount":4}';
    const data = decodePage(answer(text), 'issues', { id: 'id' }) as { issues: unknown[] };
    const source = pageSource(data)!;
    const out = ndjsonFromSource(data.issues, source)!;
    expect(out.toString()).toBe('{"id":"a","t":"x,y"}\n{"id":"b"}\n[1,2]\n"s"\n');
    expect(out.buffer).toBe(source.bytes.buffer);
  });

  it('an item sent with white space is serialized with its numbers as the service wrote them (NDJSON and JSON alike)', () => {
    // As `svc issues search --all` decodes a page (exact: true): a number a double does not hold is
    // recorded, so the serialized item writes its text, not 98765432109876540000.
    const text = '{"issues":[{"id":"a","n":12345678901234567890},{ "id": "b", "n": 98765432109876543210, "f": 0.1 }],"totalCount":2}';
    const decode = () => { const data = decodePage(answer(text), 'issues', { id: 'id' }, true) as { issues: unknown[] }; return { items: data.issues, source: pageSource(data)! }; };
    const lines = '{"id":"a","n":12345678901234567890}\n{"id":"b","n":98765432109876543210,"f":0.1}\n';
    const n = decode();
    expect(ndjsonFromSource(n.items, n.source)!.toString()).toBe(lines);
    const j = decode();
    expect(jsonMembersFromSource(j.items, j.source, true)!.toString()).toBe(`\n${lines.trimEnd().split('\n').join(',\n')}`);
  });

  it('-o json\'s members of a page are its items as sent: after a newline, and a comma unless the first of the array', () => {
    const text = '{"issues":[{"id":"a","t":"x,y","u":"\u00fcn"},{"id":"b"},[1,2],"s"],"totalCount":4}';
    const data = decodePage(answer(text), 'issues', { id: 'id' }, true) as { issues: unknown[] };
    const source = pageSource(data)!;
    expect(jsonMembersFromSource(data.issues, source, true)!.toString()).toBe('\n{"id":"a","t":"x,y","u":"\u00fcn"},\n{"id":"b"},\n[1,2],\n"s"');
    expect(jsonMembersFromSource(data.issues, source, false)!.toString()).toBe(',\n{"id":"a","t":"x,y","u":"\u00fcn"},\n{"id":"b"},\n[1,2],\n"s"');
    // Copied, not a view: the page's bytes are left as they were.
    expect(source.bytes.toString()).toBe(text);
    // Bytes that do not hold exactly these items: nothing (the writer serializes the items).
    expect(jsonMembersFromSource(data.issues.slice(1), source, true)).toBeUndefined();
    const empty = decodePage(answer('{"issues":[],"totalCount":0}'), 'issues', { id: 'id' }, true) as { issues: unknown[] };
    expect(jsonMembersFromSource(empty.issues, pageSource(empty)!, true)!.length).toBe(0);
  });

  it('releasePage gives the buffer back once, and a released page is no longer a source', () => {
    const pool = new Recording();
    const data = decodePage(answer('{"issues":[{"id":1}]}', pool), 'issues');
    expect(pageSource(data)).toBeDefined();
    releasePage(data);
    releasePage(data);
    expect(pool.given).toHaveLength(1);
    expect(pageSource(data)).toBeUndefined();
    // A page that is not an object has nothing to hold: its buffer goes back at once.
    const pool2 = new Recording();
    expect(decodePage(answer('null', pool2), 'issues')).toBeNull();
    expect(pool2.given).toHaveLength(1);
  });
});

describe('BufferPool', () => {
  it('hands out a given-back buffer that is large enough (the smallest such), else a new one with room to spare', () => {
    const pool = new BufferPool(2);
    const a = pool.take(100_000);
    const b = pool.take(1_000_000);
    // A page a little larger than the last still fits.
    expect(a.length).toBeGreaterThanOrEqual(120_000);
    pool.give(b);
    pool.give(a);
    expect(pool.take(50)).toBe(a);
    expect(pool.take(50)).toBe(b);
    expect(pool.take(50)).not.toBe(a);
  });

  it('keeps at most `keep` free buffers: the larger ones', () => {
    const pool = new BufferPool(2);
    const [small, mid, big] = [pool.take(10), pool.take(100_000), pool.take(1_000_000)];
    pool.give(small);
    pool.give(mid);
    pool.give(big); // full: the smallest goes
    expect(pool.take(1)).toBe(mid);
    expect(pool.take(1)).toBe(big);
    expect(pool.take(1)).not.toBe(small);
  });
});

describe('writeOut', () => {
  it('resolves only when the stream has taken the bytes (its callback), so the buffer can be used again', async () => {
    let done: (() => void) | undefined;
    const slow = new Writable({ write(_chunk, _enc, cb) { done = cb; } });
    let resolved = false;
    const p = writeOut(slow, Buffer.from('x\n')).then(() => { resolved = true; });
    await new Promise((r) => setImmediate(r));
    expect(resolved).toBe(false);
    done!();
    await p;
    expect(resolved).toBe(true);
  });

  it('Ctrl-C ends the wait for a reader that never takes them', async () => {
    const stuck = new Writable({ write() { /* never calls back */ } });
    const ac = new AbortController();
    const p = writeOut(stuck, Buffer.from('x\n'), ac.signal);
    ac.abort('SIGINT');
    await expect(p).rejects.toBeInstanceOf(InterruptedError);
  });
});

describe('a key given twice, at every depth the answer checks (issue 21)', () => {
  it('finds it in nested objects and lists, escaped or not, and passes keys that only look alike', () => {
    const twice = ['{"issues":[{"a":{"b":1,"b":2}}]}', '{"issues":[{"x":[{"y":1,"y":2}]}]}', '{"issues":[{"id":1,"i\\u0064":2}]}', '{"issues":[{"a":[1,{"a":2}],"a":3}]}'];
    for (const text of twice) expect(() => decodePage(answer(text), 'issues'), text).toThrow(/twice/);
    const once = ['{"issues":[{"ab":1,"ac":2,"a":3,"b":{"a":1},"c":[{"a":1},{"a":2}]}]}', '{"issues":[{"id":"\\"id\\":1","x":"a\\\\"}]}'];
    for (const text of once) expect(decodePage(answer(text), 'issues'), text).toEqual(JSON.parse(text));
  });
});

describe('the key check rides on the item scan (one walk over the bytes)', () => {
  /** What the two separate checks of the text decided (before the scan checked keys): the message, or undefined. */
  function separateChecks(text: string): string | undefined {
    const spans = itemSpans(Buffer.from(text), 'issues');
    const b = spans!.bounds;
    const bytes = Buffer.from(text);
    try {
      checkKeysOnce(`${bytes.toString('utf8', 0, spans!.listStart)}[]${bytes.toString('utf8', spans!.listEnd)}`, 'issues/search', readOnly, 2);
      for (let k = 0; k < b.length; k += 2) checkKeysOnce(bytes.toString('utf8', b[k], b[k + 1]), 'issues/search', readOnly, 2);
    } catch (err) {
      return (err as Error).message;
    }
    return undefined;
  }
  /** decodePage's verdict: the message of a refusal, or undefined (and then JSON.parse's values). */
  function decoded(text: string, slim?: { id?: string }): string | undefined {
    try {
      const data = decodePage(answer(text), 'issues', slim);
      // expect() only where the cheap strict check finds a difference (toEqual then says what it is): 6,000 calls here.
      if (!slim) {
        const parsed: unknown = JSON.parse(text);
        if (!isDeepStrictEqual(data, parsed)) expect(data, text).toEqual(parsed);
      }
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  }

  it('refuses exactly what the separate checks refused, naming the same key, at each depth they check and none deeper', () => {
    const cases: Array<[string, boolean]> = [
      ['{"a":1,"issues":[{"id":1}],"a":2}', true], // the answer's own keys
      ['{"c":{"x":1,"x":2},"issues":[]}', true], // an object of the answer
      ['{"c":[{"x":1,"x":2}],"issues":[]}', true], // arrays are no level
      ['{"c":{"d":{"x":1,"x":2}},"issues":[]}', false], // the answer's objects' objects: not checked
      ['{"issues":[{"id":1,"id":2}]}', true], // an item's keys
      ['{"issues":[{"c":{"x":1,"x":2}}]}', true], // an item's objects
      ['{"issues":[[{"c":{"x":1,"x":2}}]]}', true], // an item that is a list: its objects are the items' level
      ['{"issues":[{"c":{"d":{"x":1,"x":2}}}]}', false], // an item's objects' objects: not checked
      ['{"issues":[{"id":1},{"id":1}]}', false], // two items, each once
      ['{"issues":[{"c":{"x":1},"d":{"x":1}}]}', false], // two objects, each once
      ['{"issues":[{"ab":1,"ba":2,"a":3,"b":4}]}', false],
      ['{"issues":[{"\u00e9":1,"\u00e9":2}]}', true],
      ['{"issues":[{"\u00e9":1,"e\u0301":2}]}', false],
      ['{"issues":[{"i\\u0064":1,"id":2}]}', true], // escaped: the separate check decides
      ['{"issues":[{"x":"\\"x\\":1","y":{"x":1}}]}', false],
      ['{"issues":[{"x":1}],"n":1,"issues2":[{"x":1,"x":2}]}', true],
      [' { "issues" : [ { "id" : 1 , "id" : 2 } ] } ', true],
    ];
    for (const [text, refused] of cases) {
      const expected = separateChecks(text);
      expect(expected !== undefined, text).toBe(refused);
      // The scan decides alone where it sees no key twice (and none written with escapes).
      expect(itemSpans(Buffer.from(text), 'issues', true)!.keysOnce, text).toBe(!refused);
      expect(decoded(text), text).toBe(expected);
      expect(decoded(text, { id: 'id' }), text).toBe(expected);
    }
  });

  it('an object with more keys than the scan keeps: still refused with the key named', () => {
    const keys = Array.from({ length: 2000 }, (_, k) => `"k${k}":${k}`);
    const text = `{"issues":[{${keys.join(',')},"k1999":0}]}`;
    expect(decoded(text)).toMatch(/'k1999' twice/);
    expect(decoded(`{"issues":[{${keys.join(',')}}]}`)).toBeUndefined();
  });

  it('keys that differ only where the bytes are not UTF-8 are the same key to JSON.parse (U+FFFD): refused', () => {
    const bytes = Buffer.concat([Buffer.from('{"issues":[{"'), Buffer.from([0xff]), Buffer.from('":1,"'), Buffer.from([0xfe]), Buffer.from('":2}]}')]);
    expect(() => decodePage(new RawAnswer(bytes, 'issues/search', 200, 'application/json', (t) => t), 'issues')).toThrow(/twice/);
  });

  it('agrees with the separate checks on 3,000 generated answers (keys often repeated, nested, spaced, escaped)', () => {
    let seed = 25;
    const rnd = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
    const KEYS = ['a', 'b', 'ab', 'ba', 'id', 'i\\u0064', 'score', 'sc', 'é', 'issues'];
    const space = () => [' ', '', '', '', '', '', '\n'][rnd(7)];
    const value = (depth: number): string => {
      switch (depth > 3 ? rnd(3) : rnd(6)) {
        case 0: return String(rnd(100) - 50);
        case 1: return ['"x"', '"a\\"b"', '"]}{["', 'true', 'null', '"\\\\"'][rnd(6)];
        case 2: return '1.5e3';
        case 3: case 4: return object(depth + 1);
        default: return `[${Array.from({ length: rnd(3) }, () => space() + value(depth + 1) + space()).join(',')}]`;
      }
    };
    const object = (depth: number): string => `{${Array.from({ length: rnd(5) }, () => `${space()}"${KEYS[rnd(KEYS.length - 1)]}"${space()}:${space()}${value(depth)}`).join(',')}}`;
    let refused = 0;
    let passed = 0;
    let decidedByScan = 0;
    for (let n = 0; n < 3000; n++) {
      const items = Array.from({ length: rnd(4) }, () => (rnd(5) === 0 ? value(1) : object(1)));
      const before = Array.from({ length: rnd(3) }, () => `"${['t', 'totalCount', 'c', 't'][rnd(4)]}":${value(1)}`);
      const after = Array.from({ length: rnd(2) }, () => `"${['t', 'page', 'c'][rnd(3)]}":${value(1)}`);
      const text = `{${[...before, `"issues":[${items.join(',')}]`, ...after].join(',')}}`;
      JSON.parse(text);
      const expected = separateChecks(text);
      if (expected === undefined) passed++; else refused++;
      if (itemSpans(Buffer.from(text), 'issues', true)!.keysOnce) decidedByScan++;
      // expect() only on a difference (it then fails, saying what differs): the same check, 3,000 times cheaper.
      const [whole, slimmed] = [decoded(text), decoded(text, { id: 'id' })];
      if (whole !== expected) expect(whole, text).toBe(expected);
      if (slimmed !== expected) expect(slimmed, text).toBe(expected);
    }
    // Both verdicts are common, so the comparison means something.
    expect(refused).toBeGreaterThan(500);
    expect(passed).toBeGreaterThan(500);
    // Most answers that pass are decided by the scan alone (no escaped key in them).
    expect(decidedByScan).toBeGreaterThan(passed / 2);
  });
});
