// Work for a moment the page is idle (requestIdleCallback, or a timer where
// there is none): returns the function that cancels it. A section's destroy()
// cancels what is still pending: the callbacks hold the mount, DOM and all.
export function whenIdle(fn) {
  if (window.requestIdleCallback) {
    const handle = window.requestIdleCallback(fn);
    return () => window.cancelIdleCallback(handle);
  }
  const timer = setTimeout(fn, 300);
  return () => clearTimeout(timer);
}
