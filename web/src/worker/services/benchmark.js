// The benchmark service (section "cost"): the live benchmark.
export default { name: 'benchmark', load: () => import('../../sections/cost/bench-service.js') };
