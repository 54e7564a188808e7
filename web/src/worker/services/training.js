// The training service: trainers held by id, driven by requests (its API:
// src/training/training-service.js; used through src/training/training-run.js
// and src/training/training-pool.js).
export default { name: 'training', load: () => import('../../training/training-service.js') };
