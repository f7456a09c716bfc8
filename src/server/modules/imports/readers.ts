import type { ImportSourceName } from '../../../shared/contracts/imports';
import { readCsv } from './csv-reader';
import { readGrafanaOnCall } from './grafana-oncall-reader';
import { readIcs } from './ics-reader';
import { readOpsgenie } from './opsgenie-reader';
import { readPagerDuty } from './pagerduty-reader';
import type { SourceReader } from './source-snapshot';

/**
 * The readers an import may use, one per source (issue 34). A source without a reader here is
 * answered 422 "This source is not available yet". The composition root passes this registry to
 * the import routes; tests pass their own (a reader that answers a hand-built snapshot).
 */
export type ImportReaders = Record<ImportSourceName, SourceReader | undefined>;

export const IMPORT_READERS: ImportReaders = {
  pagerduty: readPagerDuty,
  opsgenie: readOpsgenie,
  'grafana-oncall': readGrafanaOnCall,
  ics: readIcs,
  csv: readCsv,
};

/** The answer for a source whose reader is not wired in yet. */
export const SOURCE_NOT_AVAILABLE = 'This source is not available yet';
