// The embed script: <script type="module" src=".../attention-embed.js"></script>
// defines <attention-demo> (./attention-demo.js). Each section's code, text and
// the engine's .wasm are fetched only when a widget on the page needs them.
//
// The same script serves the iframe route (embed.html?section=...&lang=...):
// there it also turns the page's URL parameters into one widget.
import { AttentionDemo } from './attention-demo.js';

export { AttentionDemo };
export { createAttention } from '../engine/index.js';

// The whole walkthrough sits next to the embed folder (dist/attention.html).
AttentionDemo.walkthroughUrl ??= new URL(/* @vite-ignore */ '../attention.html', import.meta.url).href;

if (typeof document !== 'undefined' && document.documentElement.hasAttribute('data-attention-embed-page')) {
  import('./embed-page.js');
}
