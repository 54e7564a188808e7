// The training service (sections "gradients" and "learning"): a trainer driven by requests.
export default { name: 'training', load: () => import('../../training/training-service.js') };
