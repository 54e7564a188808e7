// The experiments service (section "scaling"): the saturation experiments tenKeys, trials, sweep.
export default { name: 'experiments', load: () => import('../../sections/scaling/experiment-service.js') };
