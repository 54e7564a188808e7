// Section inputs as text: one mechanism for the page's URL (?worked-example.q=1,0)
// and the widgets' attributes (<attention-demo q="1,0">) and the iframe route
// (embed.html?section=worked-example&q=1,0). Pure functions, no DOM: tested in
// Node with hostile values (tests/js/params.test.js).
//
// Each section's codec (src/sections/<id>/params.js) lists its parameter names,
// its defaults, and one field per name that turns a string into a value or
// rejects it. A value is accepted only if it is exactly what the field expects
// (count, range, syntax); anything else is rejected, never repaired, and the
// section falls back to its defaults (decodeSection). Values are never put into
// the page as HTML: a rejected parameter is reported by name only.

export const MAX_ABS = 1000;        // numbers beyond this are "huge": rejected
export const MAX_TEXT = 2000;       // longer parameter values are rejected unread

// A plain decimal number: 1, -0.5, .5, 2e-3. No hex, no Infinity, no spaces inside.
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?$/;

export class ParamError extends Error {}

function fail(message) {
  throw new ParamError(message);
}

export function parseNumber(text, { min = -MAX_ABS, max = MAX_ABS } = {}) {
  const s = String(text).trim();
  if (!NUMBER.test(s)) fail(`not a number: ${s.length} characters`);
  const x = Number(s);
  if (!Number.isFinite(x) || x < min || x > max) fail(`out of range [${min}, ${max}]`);
  return Object.is(x, -0) ? 0 : x;
}

export function parseInteger(text, { min, max }) {
  const s = String(text).trim();
  if (!/^\d{1,16}$/.test(s)) fail('not a non-negative integer');
  const x = Number(s);
  if (!Number.isSafeInteger(x) || x < min || x > max) fail(`out of range [${min}, ${max}]`);
  return x;
}

// "1,0" -> [1, 0], exactly `length` numbers.
export function parseVector(text, length, options) {
  const parts = String(text).split(',');
  if (parts.length !== length) fail(`expected ${length} numbers, got ${parts.length}`);
  return parts.map((p) => parseNumber(p, options));
}

// "1,0;0,1;1,1" -> [[1, 0], [0, 1], [1, 1]]: rows separated by ';', numbers by ','.
// rows: a count or { min, max }; cols: a count.
export function parseMatrix(text, rows, cols, options) {
  const lines = String(text).split(';');
  const { min, max } = typeof rows === 'number' ? { min: rows, max: rows } : rows;
  if (lines.length < min || lines.length > max) {
    fail(min === max ? `expected ${min} rows, got ${lines.length}` : `expected ${min} to ${max} rows, got ${lines.length}`);
  }
  return lines.map((line) => parseVector(line, cols, options));
}

// "11000;11100;..." -> Uint8Array(rows*cols) of 0/1 (a keep-matrix, 1 = may attend).
export function parseBits(text, rows, cols) {
  const lines = String(text).split(';');
  if (lines.length !== rows || !lines.every((l) => new RegExp(`^[01]{${cols}}$`).test(l))) {
    fail(`expected ${rows} rows of ${cols} digits 0 or 1`);
  }
  return Uint8Array.from(lines.join(''), (c) => (c === '1' ? 1 : 0));
}

export function parseChoice(text, choices) {
  const s = String(text).trim().toLowerCase();
  const found = choices.find((c) => String(c) === s);
  if (found === undefined) fail(`expected one of ${choices.join(', ')}`);
  return found;
}

const TRUE = ['on', 'true', '1', 'yes'];
const FALSE = ['off', 'false', '0', 'no'];
export function parseSwitch(text) {
  const s = String(text).trim().toLowerCase();
  if (TRUE.includes(s)) return true;
  if (FALSE.includes(s)) return false;
  return fail('expected on or off');
}

// Formatting: the shortest text that parses back to the same number.
export const formatNumberParam = (x) => String(Object.is(x, -0) ? 0 : x);
export const formatVector = (values) => Array.from(values, formatNumberParam).join(',');
export const formatMatrix = (rows) => rows.map(formatVector).join(';');
export const formatBits = (bits, cols) => {
  const rows = [];
  for (let i = 0; i < bits.length; i += cols) rows.push(Array.from(bits.subarray(i, i + cols)).join(''));
  return rows.join(';');
};

// ---- a section's parameters ---------------------------------------------------

// codec: { names, defaults(), fields: { name: { parse(text), format(value) } },
//          check?(state) (throws ParamError if fields disagree), toState(values), fromState(state) }
// get(name) -> string | null (an attribute, a URL parameter).
//
// Returns { state, rejected }: the section's state from the parameters that
// are present; if any parameter is malformed (or they disagree), the whole
// section falls back to its defaults and `rejected` names the culprits.
export function decodeSection(codec, get) {
  const values = {};
  const rejected = [];
  let given = false;
  for (const name of codec.names) {
    const text = get(name);
    if (text === null || text === undefined) continue;
    given = true;
    try {
      if (String(text).length > MAX_TEXT) fail('too long');
      values[name] = codec.fields[name].parse(String(text));
    } catch (err) {
      if (!(err instanceof ParamError)) throw err;
      rejected.push(name);
    }
  }
  if (!given) return { state: codec.defaults(), rejected };
  if (rejected.length === 0) {
    try {
      const state = codec.toState(values, codec.defaults());
      codec.check?.(state);
      return { state, rejected };
    } catch (err) {
      if (!(err instanceof ParamError)) throw err;
      rejected.push(...(err.names ?? Object.keys(values)));
    }
  }
  return { state: codec.defaults(), rejected };
}

// [[name, text], ...] for the values that differ from the defaults (a link
// stays short; an untouched section adds nothing).
export function encodeSection(codec, state) {
  const now = codec.fromState(state);
  const base = codec.fromState(codec.defaults());
  const out = [];
  for (const name of codec.names) {
    if (now[name] === undefined) continue;
    const text = codec.fields[name].format(now[name]);
    if (text !== codec.fields[name].format(base[name])) out.push([name, text]);
  }
  return out;
}

// ---- the page's URL: every section's parameters, prefixed by its id ------------

// What the page reads of an address, whatever its length: at most MAX_PAIRS
// parameters (the page writes a few dozen), each part (name, value) cut to
// RAW_LIMIT characters before it is decoded. RAW_LIMIT percent-encoded
// characters decode to more than MAX_TEXT (9 for one UTF-16 unit at most:
// %XX%XX%XX), so a part cut here is still refused as too long, and named.
// Parsing a 10^6-character address whole cost the page's first task 0.1-2.4 s
// (250,000 parameters "a=1&a=1&..."; a 10^6-character name, never shortened).
export const MAX_PAIRS = 100;
const RAW_LIMIT = 9 * (MAX_TEXT + 1);

// [[name, value], ...] decoded as URLSearchParams decodes them, the work
// bounded as above (the first `limit` parameters).
export function addressPairs(search, limit = MAX_PAIRS) {
  const text = String(search);
  const pairs = [];
  for (let at = text.startsWith('?') ? 1 : 0; at < text.length && pairs.length < limit;) {
    const amp = text.indexOf('&', at);
    const end = amp === -1 ? text.length : amp;
    const equals = text.indexOf('=', at);
    const nameEnd = equals === -1 || equals > end ? end : equals;
    const name = text.slice(at, Math.min(nameEnd, at + RAW_LIMIT));
    const value = nameEnd === end ? '' : text.slice(nameEnd + 1, Math.min(end, nameEnd + 1 + RAW_LIMIT));
    if (at < end) pairs.push([...new URLSearchParams(`${name}=${value}`)][0]);
    at = end + 1;
  }
  return pairs;
}

// `search` as the page reads it (addressPairs), every name and value longer
// than MAX_TEXT cut to MAX_TEXT + 1 characters: still refused as too long
// (and named in the notice), but the address stays short. The browser
// resolves every link of the page against the address: with a
// 10^6-character parameter that was 7 s of the page's first task
// (tests/e2e/hostile-inputs.test.mjs). Unchanged when nothing is cut.
export function shortenOverlongParams(search) {
  const text = String(search).replace(/^\?/, '');
  const pairs = addressPairs(text, MAX_PAIRS + 1);
  if (pairs.length <= MAX_PAIRS && pairs.every(([k, v]) => k.length <= MAX_TEXT && v.length <= MAX_TEXT)) return text;
  return queryString(pairs.slice(0, MAX_PAIRS).map(([k, v]) => [k.slice(0, MAX_TEXT + 1), v.slice(0, MAX_TEXT + 1)]));
}

// The element id a location hash names ("#masking" -> "masking"), or null when
// there is none or it is not valid percent-encoding ("#%E0%A4%A" would make
// decodeURIComponent throw a URIError).
export function hashTarget(hash) {
  if (!hash || hash === '#') return null;
  try {
    return decodeURIComponent(hash.slice(1));
  } catch {
    return null;
  }
}

// The parameters of section `id` in a query string: "worked-example.q" etc.
export const pageParamName = (id, name) => `${id}.${name}`;

export function pageGetter(search, id) {
  const params = new Map(addressPairs(search).reverse());   // the first of a repeated name, as URLSearchParams.get
  return (name) => params.get(pageParamName(id, name)) ?? null;
}

// A readable query string: ',' ';' ':' stay as they are.
export function queryString(pairs) {
  const esc = (s) => encodeURIComponent(s).replace(/%2C/g, ',').replace(/%3B/g, ';').replace(/%3A/g, ':');
  return pairs.map(([k, v]) => `${esc(k)}=${esc(v)}`).join('&');
}

// The page's query with the parameters of section `id` replaced by `pairs`
// (other parameters, e.g. lang or another section's, are kept in order).
export function replaceSectionParams(search, id, pairs) {
  const kept = [...new URLSearchParams(search)].filter(([k]) => !k.startsWith(`${id}.`));
  return queryString([...kept, ...pairs.map(([name, text]) => [pageParamName(id, name), text])]);
}
