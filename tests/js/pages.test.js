// The two pages (web/src/sections/pages.js): which sections each shows, their
// numbers, the address of each page on the site and in the single file, and
// the links of a text to a section of the other page (i18n/lookup.js, linkSections).
import { describe, expect, test } from 'vitest';
import { sections } from '../../web/src/sections/registry.js';
import { DEFAULT_PAGE, PAGES, PAGE_NAMES, SECTION_NUMBERS, addressIn, choosePage, pageAddress, pageOf, sectionHref, sectionsOf } from '../../web/src/sections/pages.js';
import { linkSections, translator } from '../../web/src/i18n/lookup.js';

const walkthrough = sectionsOf('walkthrough');
const learns = sectionsOf('learns');

describe('pages', () => {
  test('every section is on exactly one page; a section without `page` is on the walkthrough; each page numbers its own from 1', () => {
    expect(PAGE_NAMES).toEqual(['walkthrough', 'learns']);
    expect([...walkthrough, ...learns].map((s) => s.id).sort()).toEqual(sections.map((s) => s.id).sort());
    for (const s of sections) expect(PAGE_NAMES, s.id).toContain(pageOf(s));
    expect(pageOf({ id: 'x' })).toBe(DEFAULT_PAGE);
    expect(walkthrough.map((s) => s.id)).toContain('learning');
    walkthrough.forEach((s, i) => expect(SECTION_NUMBERS[s.id]).toBe(i + 1));
    learns.forEach((s, i) => expect(SECTION_NUMBERS[s.id]).toBe(i + 1));
    // Registry order within each page.
    const order = sections.map((s) => s.id);
    for (const list of [walkthrough, learns]) expect(list.map((s) => order.indexOf(s.id))).toEqual(list.map((s) => order.indexOf(s.id)).sort((a, b) => a - b));
  });

  test('the page shown: ?page= where it names one, else the page\'s own, else the walkthrough', () => {
    expect(choosePage('?page=learns', 'walkthrough')).toBe('learns');
    expect(choosePage('?lang=ko', 'learns')).toBe('learns');
    expect(choosePage('?page=nope', '')).toBe('walkthrough');
    expect(choosePage('?page=constructor', undefined)).toBe('walkthrough');
    expect(choosePage('', 'toString')).toBe('walkthrough');
  });

  test('addresses of the pages: files on the site, ?page= in the single file, the language kept', () => {
    expect(pageAddress('learns', { lang: 'ko' })).toBe('learns.html?lang=ko');
    expect(pageAddress('walkthrough', { lang: 'en' })).toBe('./?lang=en');
    expect(pageAddress('walkthrough', {})).toBe('./');
    expect(pageAddress('learns', { lang: 'en', singleFile: true })).toBe('?page=learns&lang=en');
    expect(pageAddress('walkthrough', { lang: 'en', singleFile: true })).toBe('?lang=en');
    expect(pageAddress('walkthrough', { singleFile: true })).toBe('?');
    expect(PAGES.learns.learning).toBe(true);
    expect(PAGES.walkthrough.learning).toBe(false);
  });

  test('a link to a section stays #id on its own page and goes to the other page\'s address elsewhere; #learns and #walkthrough are the pages', () => {
    expect(sectionHref('masking', { from: 'walkthrough', lang: 'en' })).toBeNull();
    expect(sectionHref('masking', { from: 'learns', lang: 'ko' })).toBe('./?lang=ko#masking');
    expect(sectionHref('masking', { from: 'learns', lang: 'ko', singleFile: true })).toBe('?lang=ko#masking');
    expect(sectionHref('learns', { from: 'walkthrough', lang: 'en' })).toBe('learns.html?lang=en');
    expect(sectionHref('walkthrough', { from: 'learns', lang: 'en' })).toBe('./?lang=en');
    expect(sectionHref('learns', { from: 'learns', lang: 'en' })).toBe('#main');
    expect(sectionHref('main', { from: 'learns', lang: 'en' })).toBeNull();   // not a section: left as written
    for (const s of learns) expect(sectionHref(s.id, { from: 'walkthrough', lang: 'en' })).toBe(`learns.html?lang=en#${s.id}`);
    // In a widget: the single file, on the page of the section.
    const base = 'https://example.org/attention/attention.html';
    expect(addressIn(base, 'masking')).toBe(`${base}#masking`);
    expect(addressIn(base, 'learns')).toBe(`${base}?page=learns`);
    for (const s of learns) expect(addressIn(base, s.id)).toBe(`${base}?page=learns#${s.id}`);
  });

  test('the texts\' links: href="#id" rewritten by hrefOf, other attributes and unknown ids untouched, {§id} numbered first', () => {
    const hrefOf = (id) => sectionHref(id, { from: 'learns', lang: 'en' });
    expect(linkSections('<a href="#order">section {§order}</a> <a href="#main">top</a> <b id="#order">', hrefOf))
      .toBe('<a href="./?lang=en#order">section {§order}</a> <a href="#main">top</a> <b id="#order">');
    expect(linkSections('<a href="#order">x</a>', null)).toBe('<a href="#order">x</a>');
    const t = translator({ a: '<a href="#order">section {§order} of the walkthrough</a>, {n}' }, {}, SECTION_NUMBERS, hrefOf);
    expect(t('a', { n: 2 })).toBe(`<a href="./?lang=en#order">section ${SECTION_NUMBERS.order} of the walkthrough</a>, 2`);
  });
});
