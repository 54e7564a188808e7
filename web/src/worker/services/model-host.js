// The model host (sections "induction" and "decoding"): a trainer of the model engine, trained to a target and read.
export default { name: 'model-host', load: () => import('../../training/model-host-service.js') };
