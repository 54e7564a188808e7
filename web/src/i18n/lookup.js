// Language choice and string lookup. Pure functions (no DOM, no loading):
// unit-tested in Node. Loading the language modules is in ./index.js.
import { particle } from './korean-particles.js';

export const LANGUAGES = ['ko', 'en'];
export const DEFAULT_LANGUAGE = 'en';

// ?lang=ko|en wins; otherwise the first of the browser's languages that we
// have; otherwise English.
export function chooseLanguage(search = '', browserLanguages = []) {
  const asked = new URLSearchParams(search).get('lang')?.toLowerCase();
  if (LANGUAGES.includes(asked)) return asked;
  for (const tag of browserLanguages) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return DEFAULT_LANGUAGE;
}

// The value at a dotted path ("steps.scale.label") in a strings object.
export function lookup(strings, key) {
  let node = strings;
  for (const part of key.split('.')) {
    if (node == null || typeof node !== 'object') return undefined;
    node = node[part];
  }
  return node;
}

// "{n} tokens" with { n: 5 } -> "5 tokens". Unknown names are left visible.
// "{divisor|으로}" adds the Korean particle that fits the value as read
// (./korean-particles.js): "22.63으로", "1.414로".
export function interpolate(text, params = {}) {
  return text.replace(/\{(\w+)(?:\|([\uac00-\ud7a3]+))?\}/g, (whole, name, josa) => {
    if (!(name in params)) return whole;
    const value = String(params[name]);
    return josa ? value + particle(value, josa) : value;
  });
}

// "section {§masking}" -> "section 6": the number a section has in the
// walkthrough (`numbers`: id -> number, from the registry's order), so that
// the text stays right when a section is added before another.
const SECTION_REFERENCE = /\{§([\w-]+)\}/g;
export function numberSections(text, numbers = {}) {
  return text.replace(SECTION_REFERENCE, (whole, id) => (id in numbers ? String(numbers[id]) : whole));
}

// <a href="#order"> -> <a href="learns.html?lang=en#order"> where the section
// is on another page: hrefOf(id) is the address to use, or null to leave the
// link as written (src/sections/pages.js, sectionHref).
const SECTION_LINK = /href="#([\w-]+)"/g;
export function linkSections(text, hrefOf) {
  if (!hrefOf) return text;
  return text.replace(SECTION_LINK, (whole, id) => {
    const href = hrefOf(id);
    return href == null ? whole : `href="${href}"`;
  });
}

// t('key', params) over one section's strings; falls back to common strings,
// then to a visible marker so a missing string is noticed, not silently blank.
// `numbers`: the sections' numbers, for {§id} (numberSections); `hrefOf`: the
// links to sections of another page (linkSections).
export function translator(strings, common = {}, numbers = {}, hrefOf = null) {
  const t = (key, params) => {
    const value = lookup(strings, key) ?? lookup(common, key);
    if (value === undefined) return `\u27e6${key}\u27e7`;
    return typeof value === 'string' ? interpolate(linkSections(numberSections(value, numbers), hrefOf), params) : value;
  };
  return t;
}

// Every dotted key of a strings object (for the completeness tests).
export function keysOf(strings, prefix = '') {
  const out = [];
  for (const [k, v] of Object.entries(strings)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(...keysOf(v, path));
    else out.push(path);
  }
  return out.sort();
}
