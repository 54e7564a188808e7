// The services the page runs in a worker (./bridge.js), by name: each module
// exports createService({ engine }) -> its handlers (./serve.js). `engine` is
// the page's engine when the service runs on the page (no worker could start);
// in a worker it is undefined and the service loads the engine it needs.
// A new kind of background work adds its line here.
export const SERVICES = {
  // section "scaling": the saturation experiments (tenKeys, trials, sweep)
  experiments: () => import('../sections/scaling/experiment-service.js'),
  // sections "gradients" and "learning": a trainer driven by requests
  training: () => import('../training/training-service.js'),
  // section "cost": the live benchmark
  benchmark: () => import('../sections/cost/bench-service.js'),
};
