/**
 * A long listing's pages: parsed when their turn comes, item by item, into pooled buffers that are
 * used again; the values are exactly JSON.parse's, and anything a byte scan could get wrong is
 * parsed whole.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { RawAnswer } from '../../../src/http/raw-answer.js';
import { BufferPool } from '../../../src/http/buffer-pool.js';
import { decodePage, pageSource, releasePage } from '../../../src/listing/page-decode.js';
import { ndjsonFromSource } from '../../../src/listing/stream-out.js';
import { writeOut } from '../../../src/output/write.js';
import { InterruptedError } from '../../../src/errors.js';

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

  it('slim: only each item\'s id is kept, and only for compact items (the bytes are written as they are)', () => {
    const compact = '{"issues":[{"id":"a","x":[1,2]},{"id":"b","y":{"z":1}},"s",3],"totalCount":4}';
    expect(decodePage(answer(compact), 'issues', { id: 'id' })).toEqual({ issues: [{ id: 'a' }, { id: 'b' }, 's', 3], totalCount: 4 });
    expect(decodePage(answer(compact), 'issues', {})).toEqual({ issues: [{}, {}, 's', 3], totalCount: 4 });
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
