// Tiny DOM helpers shared by the components and section views. Not a component:
// plain functions over the DOM.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, props) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    else if (key === 'text') el.textContent = value;
    else if (key === 'html') el.innerHTML = value;  // trusted strings only: our language files
    else if (key === 'style' && typeof value === 'object') setStyle(el, value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key === 'on') for (const [type, fn] of Object.entries(value)) el.addEventListener(type, fn);
    else if (key.startsWith('.')) el[key.slice(1)] = value;  // a property, e.g. '.value'
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  return el;
}

// { color: 'red', '--cols': '3' }: custom properties need setProperty (assigning
// them to el.style is silently ignored).
function setStyle(el, styles) {
  for (const [name, value] of Object.entries(styles)) {
    if (value === undefined || value === null) continue;
    if (name.startsWith('--')) el.style.setProperty(name, String(value));
    else el.style[name] = value;
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// h('p', { class: 'note' }, 'text', childNode, ...)
export function h(tag, props, ...children) {
  return append(apply(document.createElement(tag), props), children);
}

export function svg(tag, props, ...children) {
  return append(apply(document.createElementNS(SVG_NS, tag), props), children);
}

// Our language strings are trusted HTML (they may hold prerendered MathML).
export function html(tag, props, markup) {
  return apply(document.createElement(tag), { ...props, html: markup });
}

// Text (a reader's words) made safe to put into markup.
export function escapeHTML(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

export function setHTML(el, markup) {
  if (el.innerHTML !== markup) el.innerHTML = markup;
  return el;
}

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
  return el;
}

let counter = 0;
// A document-unique id with a readable prefix, for aria-labelledby etc.
export function uid(prefix = 'id') {
  counter += 1;
  return `${prefix}-${counter}`;
}

// Chromium keeps the named radio buttons of a shadow root in their radio group
// after they are removed from it, and with them everything they were in and
// its event listeners: a widget with a choice group (masking, multi-head,
// reading-weights, cost) kept its whole previous render at every re-render
// (tests/e2e/hostile-inputs.test.mjs measured 1,000 nodes and 200 listeners
// per re-render). Without their names they are released: call this on a
// subtree of a shadow root before removing or replacing it.
export function releaseRadioButtons(root) {
  for (const input of root.querySelectorAll('input[type="radio"][name]')) input.removeAttribute('name');
}

