// embed/embed-snippet.js: the code of the "Embed this" control.
import { describe, expect, test } from 'vitest';
import { iframeSnippet, listenerSnippet, scriptSnippet } from '../../web/src/embed/embed-snippet.js';
import { decodeSection } from '../../web/src/lib/params.js';
import masking from '../../web/src/sections/masking/params.js';

const embedBase = 'https://example.org/attention/embed/';

describe('embed snippets', () => {
  test('the script tag and the element carry the section, the language and its inputs as attributes', () => {
    const pairs = [['mask', '10000;11000;11100;11110;11101'], ['row', '5']];
    const code = scriptSnippet({ embedBase, section: 'masking', lang: 'ko', pairs });
    expect(code).toBe('<script type="module" src="https://example.org/attention/embed/attention-embed.js"></script>\n'
      + '<attention-demo section="masking" lang="ko" mask="10000;11000;11100;11110;11101" row="5"></attention-demo>');
    // The attributes read back, through the section's own codec, into the same state.
    const attributes = Object.fromEntries([...code.matchAll(/ ([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const { state, rejected } = decodeSection(masking, (name) => attributes[name] ?? null);
    expect(rejected).toEqual([]);
    expect(state).toMatchObject({ mode: 'custom', focusRow: 4 });
  });

  test('values are escaped for an attribute (nothing a value holds can end it)', () => {
    const code = scriptSnippet({ embedBase, section: 'x', lang: 'en', pairs: [['q', '"><script>']] });
    expect(code).toContain('q="&quot;>&lt;script>"');
  });

  test('the iframe: the same inputs in the URL, a height for hosts without scripts, and the listener for the others', () => {
    const code = iframeSnippet({ embedBase, section: 'worked-example', lang: 'en', pairs: [['q', '0.5,1']], title: 'Score, softmax, mix', height: 2371.2 });
    expect(code).toContain('src="https://example.org/attention/embed/embed.html?section=worked-example&amp;lang=en&amp;q=0.5,1"');
    expect(code).toContain('title="Score, softmax, mix"');
    expect(code).toContain('height:2372px');
    expect(code).toContain(listenerSnippet('https://example.org'));
    expect(listenerSnippet('https://example.org')).toContain("event.origin !== 'https://example.org'");
    expect(listenerSnippet('https://example.org')).toContain("'attention-demo:height'");
  });
});
