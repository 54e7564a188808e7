// The iframe route, for hosts that strip scripts:
//   <iframe src=".../embed.html?section=masking&lang=ko&mask=causal" title="..."></iframe>
// Every URL parameter that <attention-demo> observes becomes an attribute of
// one widget (attribute values are text: nothing from the URL becomes HTML).
// The widget parses them with the same codecs as the page's links. The page
// posts its height to the parent ({ type: 'attention-demo:height', height }),
// for hosts that want to size the iframe to fit.
import { AttentionDemo } from './attention-demo.js';
import { addressPairs } from '../lib/params.js';

// (Read with bounded work, whatever the address's length: lib/params.js.)
const params = new URLSearchParams(addressPairs(location.search));
const widget = document.createElement('attention-demo');
for (const name of AttentionDemo.observedAttributes) {
  const value = params.get(name);
  if (value !== null) widget.setAttribute(name, value);
}
if (!widget.hasAttribute('section')) widget.setAttribute('section', 'worked-example');
const theme = widget.getAttribute('theme');
if (theme === 'light' || theme === 'dark') document.documentElement.style.colorScheme = theme;
document.body.append(widget);
widget.addEventListener('attention-ready', (event) => {
  document.documentElement.lang = event.detail.lang;
}, { once: true });

if (window.parent !== window) {
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) {
      last = height;
      window.parent.postMessage({ type: 'attention-demo:height', section: widget.getAttribute('section'), height }, '*');
    }
  }).observe(document.body);
}
