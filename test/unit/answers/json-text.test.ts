/**
 * An answer written exactly as JSON.stringify writes what it parses to cannot give a key twice, so
 * parseAnswer skips the key scan for it; every other text is scanned, and a key given twice is
 * refused whichever way the text is written.
 */
import { describe, expect, it } from 'vitest';
import { isCanonical } from '../../../src/answers/json-text.js';
import { parseAnswer } from '../../../src/http/raw-answer.js';

const notJson = () => new Error('not JSON');
const parse = (text: string) => parseAnswer(text, notJson, 'issues/search');

describe('isCanonical', () => {
  it('is true only for the text JSON.stringify writes', () => {
    const data = { issues: [{ id: 'iss_1', score: 9.5, tags: ['a'], patch: null }], totalCount: 1 };
    const text = JSON.stringify(data);
    expect(isCanonical(text, JSON.parse(text))).toBe(true);
    for (const other of [
      JSON.stringify(data, null, 2), // spaces
      `${text}\n`, // a newline after it
      text.replace('9.5', '9.50'), // another spelling of the number
      text.replace('"iss_1"', '"iss\\u005f1"'), // an escape
      text.replace('"totalCount":1', '"totalCount":0,"totalCount":1'), // a key twice: JSON.parse keeps the last
    ]) expect(isCanonical(other, JSON.parse(other)), other).toBe(false);
  });
});

describe('parseAnswer', () => {
  it('refuses a key given twice however the rest of the text is written', () => {
    const twice = '{"issues":[{"id":"iss_1","score":90,"score":10}],"totalCount":1}';
    for (const text of [twice, twice.replace(/,/g, ', '), `${twice}\n`, twice.replace('"issues"', '"\\u0069ssues"')]) {
      expect(() => parse(text), text).toThrow(/gives 'issues\.score' twice|gives 'score' twice/);
    }
    expect(() => parse('{"totalCount":0,"issues":[],"totalCount":5}')).toThrow(/'totalCount' twice/);
  });

  it('takes a compact answer and the same answer written with spaces alike', () => {
    const data = { issues: [{ id: 'iss_1', score: 90 }], totalCount: 1 };
    expect(parse(JSON.stringify(data))).toEqual(data);
    expect(parse(JSON.stringify(data, null, 2))).toEqual(data);
  });
});
