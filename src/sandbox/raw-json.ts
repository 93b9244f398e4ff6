/**
 * JSON text made once and sent as it is. A page of 500 issues is ~0.9 MB of JSON: expanding and
 * serializing it on every request cost more than finding the issues. A handler may answer with an
 * object whose arrays hold RawJson items; the server then copies their bytes without serializing
 * them again (`jsonBytes`). Anything else that serializes them (JSON.stringify) gets the same value.
 */
export class RawJson {
  constructor(readonly bytes: Buffer) {}

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

const isRawList = (v: unknown): v is RawJson[] => Array.isArray(v) && v.length > 0 && v.every((x) => x instanceof RawJson);
const COMMA = 0x2c;

/**
 * `JSON.stringify(payload)` as UTF-8; arrays of RawJson at the top level of an object are copied, not
 * serialized, into a buffer from `into` when given (a reused one: see src/http/buffer-pool.ts).
 */
export function jsonBytes(payload: unknown, into?: (size: number) => Buffer): Buffer {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload) || !Object.values(payload).some(isRawList)) {
    return Buffer.from(JSON.stringify(payload) ?? 'null');
  }
  // Pieces in order: text between the lists, and the lists themselves.
  const pieces: Array<Buffer | RawJson[]> = [];
  let text = '{';
  let first = true;
  for (const [key, value] of Object.entries(payload)) {
    // JSON.stringify leaves these out of an object.
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (isRawList(value)) {
      pieces.push(Buffer.from(`${text}[`), value);
      text = ']';
    } else {
      text += JSON.stringify(value);
    }
  }
  pieces.push(Buffer.from(`${text}}`));
  let size = 0;
  for (const p of pieces) {
    if (Buffer.isBuffer(p)) size += p.length;
    else for (const item of p) size += item.bytes.length + 1;
  }
  size -= pieces.filter((p) => !Buffer.isBuffer(p)).length;
  const out = into ? into(size) : Buffer.allocUnsafe(size);
  // TypedArray#set: a page is ~1,000 pieces, and Buffer#copy's checks cost more than their bytes.
  let at = 0;
  for (const p of pieces) {
    if (Buffer.isBuffer(p)) {
      out.set(p, at);
      at += p.length;
      continue;
    }
    for (let i = 0; i < p.length; i++) {
      if (i > 0) out[at++] = COMMA;
      const bytes = p[i].bytes;
      out.set(bytes, at);
      at += bytes.length;
    }
  }
  return out.subarray(0, size);
}
