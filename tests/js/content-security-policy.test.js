// The Content-Security-Policy the site ships (issue 12, item 6): the policy
// module, its <meta> placement, the single file's hash-based policy, and the
// build step that turns temml's style attributes into classes (a style
// attribute would need 'unsafe-inline'). The pages themselves are opened under
// the policy by every end-to-end test (scripts/lib/browser.mjs fails on any
// violation) and checked in tests/e2e/content-security-policy.test.mjs.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { SITE_POLICY, withPolicy } from '../../web/vite-plugins/content-security-policy.js';
import { singleFilePolicy } from '../../web/vite-plugins/single-file.js';
import { MATH_STYLE_CLASSES, texToMathML, withoutStyleAttributes } from '../../web/vite-plugins/prerender-math.js';
import { CONTENT_SECURITY_POLICY } from '../../scripts/lib/serve.mjs';

const directives = (policy) => Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));

describe('the site policy', () => {
  test('allows the page\'s own scripts, wasm, styles and workers, and nothing inline', () => {
    const d = directives(SITE_POLICY);
    expect(d['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(d['style-src']).toEqual(["'self'"]);
    expect(d['worker-src']).toEqual(["'self'"]);
    expect(d['default-src']).toEqual(["'self'"]);
    expect(d['object-src']).toEqual(["'none'"]);
    expect(SITE_POLICY).not.toMatch(/'unsafe-(inline|eval)'|\*/);
    expect(CONTENT_SECURITY_POLICY, 'the server sends the policy the pages carry').toBe(SITE_POLICY);
  });
  test('goes first in <head>, replacing any policy the page had', () => {
    const page = '<!doctype html><html><head>\n  <meta charset="utf-8">\n  <meta http-equiv="Content-Security-Policy" content="old">\n  <script src="x.js"></script></head></html>';
    const out = withPolicy(page, "default-src 'none'");
    expect(out).toMatch(/<head>\n {2}<meta http-equiv="Content-Security-Policy" content="default-src 'none'">\n {2}<meta charset/);
    expect(out.match(/Content-Security-Policy/g)).toHaveLength(1);
    expect(() => withPolicy('<html><body></body></html>', 'x')).toThrow(/no <head>/);
  });
});

describe('the single file\'s policy', () => {
  test('allows its one script and its one style by their SHA-256 hashes, nothing else', () => {
    const script = 'console.log("<\\/script>")', style = 'body{margin:0}';
    const hash = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    const d = directives(singleFilePolicy([script], [style]));
    expect(d['script-src']).toEqual([hash(script), "'wasm-unsafe-eval'"]);
    expect(d['style-src']).toEqual([hash(style)]);
    expect(d['default-src']).toEqual(["'none'"]);
    expect(d['worker-src']).toEqual(["'self'"]);
    expect(() => singleFilePolicy([script, script], [style])).toThrow(/one inline script/);
  });
});

describe('temml\'s style attributes become classes at build time', () => {
  test('every formula of the build is free of style attributes; the classes carry the same rules', () => {
    // an aligned environment (mtd paddings), display math, a negative thin space
    const mathml = texToMathML(String.raw`\begin{aligned} a &= b \\ c &= d \!\, e \end{aligned}`, { display: true });
    expect(mathml).not.toMatch(/\sstyle=/);
    expect(mathml).toMatch(/<math[^>]*class="tml-display tml-style-display-block"/);
    expect(mathml).toMatch(/class="[^"]*tml-style-pad-none/);
    expect(Object.keys(MATH_STYLE_CLASSES)).toContain('display:block math;');
  });
  test('a style it does not know fails the build', () => {
    expect(() => withoutStyleAttributes('<mi style="color:red;">x</mi>', 'here'))
      .toThrow('here: temml wrote style="color:red;", which has no class in MATH_STYLE_CLASSES');
    expect(withoutStyleAttributes('<mi class="a" style="math-depth:0;">x</mi><mo style="math-depth:0;">+</mo>'))
      .toBe('<mi class="a tml-style-depth-0">x</mi><mo class="tml-style-depth-0">+</mo>');
  });
});
