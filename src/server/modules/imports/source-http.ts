import type { HostLookup, OutboundRule } from '../../http/outbound-address';
import { ANSWER_TOO_LARGE, OutboundError, readOutbound } from '../../http/outbound-request';
import { ImportSourceError, type SourceGet } from './source-snapshot';

/** How long one GET of a source may take before the import says it timed out. */
export const SOURCE_TIMEOUT_MS = 15_000;
/** The largest answer one GET keeps: a page of a source's list is far smaller. */
export const SOURCE_ANSWER_MAX_BYTES = 20 * 1024 * 1024;

/**
 * sourceGet makes the GET every reader uses: under the outbound address rule (in production an
 * import source never resolves to Baton's own network), with a timeout, and with each failure
 * turned into an ImportSourceError naming the source and what failed. A 401 or 403 says the key
 * was refused; any other status that is not 2xx names the status; a body that is not JSON says so.
 * The key travels only in the headers the reader passes and is never logged or kept.
 */
export function sourceGet(options: {
  /** the source's name in messages: "PagerDuty", "Opsgenie", "Grafana OnCall" */
  sourceLabel: string;
  rule: OutboundRule;
  timeoutMs?: number;
  lookup?: HostLookup;
}): SourceGet {
  const { sourceLabel, rule, timeoutMs = SOURCE_TIMEOUT_MS, lookup } = options;
  return async (url, headers) => {
    let answer: { status: number; body: string };
    try {
      answer = await readOutbound({
        url,
        headers: { accept: 'application/json', ...headers },
        timeoutMs,
        rule,
        maxBytes: SOURCE_ANSWER_MAX_BYTES,
        lookup,
      });
    } catch (err) {
      if (err instanceof OutboundError) {
        const what =
          err.reason === ANSWER_TOO_LARGE
            ? `answered more than ${SOURCE_ANSWER_MAX_BYTES / 1024 / 1024} MB for one page`
            : err.failure === 'timeout'
              ? `did not answer within ${Math.round(timeoutMs / 1000)} s`
              : `could not be reached at ${new URL(url).host}: ${err.reason}`;
        throw new ImportSourceError(`${sourceLabel} ${what}`);
      }
      if (err instanceof TypeError) {
        throw new ImportSourceError(`${sourceLabel}'s API address is not a valid URL`, 'input');
      }
      throw err;
    }
    if (answer.status === 401 || answer.status === 403) {
      throw new ImportSourceError(
        `${sourceLabel} refused the API key (${answer.status}): check the key and that it may read this account`,
        'input',
      );
    }
    if (answer.status < 200 || answer.status > 299) {
      throw new ImportSourceError(
        `${sourceLabel} answered ${answer.status} for ${new URL(url).pathname}`,
      );
    }
    try {
      return { status: answer.status, body: JSON.parse(answer.body) as unknown };
    } catch {
      throw new ImportSourceError(
        `${sourceLabel} answered ${new URL(url).pathname} with data that is not JSON`,
      );
    }
  };
}
