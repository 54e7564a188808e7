// "Embed this": a disclosure under a section's title that shows the code to
// embed the section as it is now, two ways (the script tag and element, or an
// iframe with the lines that size it), each with a copy button. No inline
// script or style: it works under the page's strict Content-Security-Policy.
//
//   const panel = embedPanel({ labels, snippets: () => ({ script, iframe }) });
//   section.append(panel.el); ... panel.refresh() when the section changes
// The code is written when the panel opens and again on refresh while open.
import { h, html, setText, uid } from '../lib/dom.js';
import './embed-panel.css';

async function copyText(text, fallbackNode) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // No clipboard API here (an old browser, a page opened from disk): copy the selection.
    const range = document.createRange();
    range.selectNodeContents(fallbackNode);
    const selection = getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return document.execCommand?.('copy') ?? false;
  }
}

export function embedPanel({ labels, snippets }) {
  const statusId = uid('embed-status');
  const status = h('p', { class: 'embed-status', id: statusId, role: 'status', 'aria-live': 'polite' });
  const block = (kind) => {
    const code = h('code', { class: 'embed-code-text' });
    const pre = h('pre', { class: 'embed-code', tabindex: '0', 'aria-label': labels[kind] }, code);
    const copy = h('button', { type: 'button', class: 'btn btn-secondary embed-copy', dataset: { copy: kind }, 'aria-describedby': statusId },
      h('span', { class: 'btn-label', text: labels.copy }));
    copy.addEventListener('click', async () => {
      const ok = await copyText(code.textContent, code);
      setText(status, ok ? labels.copied : labels.copyFailed);
    });
    return { code, el: h('div', { class: 'embed-block', dataset: { kind } }, html('p', { class: 'embed-label' }, labels[kind]), pre, copy) };
  };
  const script = block('script');
  const iframe = block('iframe');
  const details = h('details', { class: 'embed-this' },
    h('summary', { class: 'embed-summary' }, h('span', { 'aria-hidden': 'true', class: 'embed-icon', text: '</>' }), ' ', labels.summary),
    h('div', { class: 'embed-body' }, html('p', { class: 'embed-intro' }, labels.intro), script.el, iframe.el, status));

  function refresh() {
    if (!details.open) return;
    const next = snippets();
    setText(script.code, next.script);
    setText(iframe.code, next.iframe);
  }
  details.addEventListener('toggle', () => {
    setText(status, '');
    refresh();
  });
  return { el: details, refresh };
}
