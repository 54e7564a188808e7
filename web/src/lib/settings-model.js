// The live model of a section that computes nothing on the page until the
// reader trains (the second page's sections): its settings only, set by
// model.set(changes), encoded for links from model.snapshot (./live-model.js).
import { liveModel } from './live-model.js';

export const settingsModel = (initial) => liveModel({
  initial,
  compute: () => null,
  actions: { set(settings, changes) { Object.assign(settings, changes); } },
  views: { settings: (_, settings) => settings },
});
