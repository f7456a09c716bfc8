import type { AppDeps } from '../../core/deps';
import type { Metrics } from '../metrics/metrics';

/** What the alert routes are given: the app's deps and, when the app counts them, the metrics. */
export type AlertDeps = AppDeps & { metrics?: Metrics };
