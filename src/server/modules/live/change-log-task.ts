import { LIVE_REPLAY_WINDOW_MS } from '../../../shared/contracts/live-events';
import type { EngineTask } from '../../engine/engine-task';
import { REPLAY_MARGIN_MS } from './live-hub';
import { pruneChangeEvents } from './live-repository';

/**
 * changeLogTask keeps the live stream's change log to its replay window (ten minutes, and the
 * replay margin), on every tick of every instance: one indexed delete, usually of nothing. It
 * runs whether or not this instance has streams, since every instance's changes write the log.
 */
export const changeLogTask: EngineTask = async (deps) => {
  await pruneChangeEvents(deps.database.db, LIVE_REPLAY_WINDOW_MS + REPLAY_MARGIN_MS);
};
