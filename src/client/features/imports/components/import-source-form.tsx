import {
  API_IMPORT_SOURCES,
  IMPORT_SOURCE_LABELS,
  IMPORT_SOURCES,
  type ImportRequest,
  type ImportSourceName,
} from '@shared/contracts/imports';
import { FileUp } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { fieldErrorsOf } from '@/lib/field-errors';

/** Where each source's key is made, and the API address it uses unless told otherwise. */
const SOURCE_HINTS: Record<ImportSourceName, { key?: string; url?: string; file?: string }> = {
  pagerduty: {
    key: 'A read-only REST API key: PagerDuty → Integrations → API Access Keys.',
    url: 'https://api.pagerduty.com',
  },
  opsgenie: {
    key: 'An API key with read access: Opsgenie → Settings → API key management.',
    url: 'https://api.opsgenie.com (EU accounts: https://api.eu.opsgenie.com)',
  },
  'grafana-oncall': {
    key: 'An API token: Grafana OnCall → Settings → API Tokens.',
    url: 'Your OnCall address, such as https://oncall.example.com',
  },
  ics: { file: 'A schedule exported as a calendar (.ics) from PagerDuty, Opsgenie or Grafana.' },
  csv: { file: 'A spreadsheet saved as CSV, in the columns of the template.' },
};

const FIELDS = ['source', 'apiUrl', 'apiKey', 'content'] as const;

/**
 * ImportSourceForm asks where to import from: a vendor's API (its address and a key, used for this
 * read only and never kept) or a file (a calendar or a spreadsheet, read in the browser and sent
 * as text). Submitting makes a plan; nothing is written until the plan is applied.
 */
export function ImportSourceForm({
  pending,
  error,
  onSubmit,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (request: ImportRequest) => void;
}) {
  const id = useId();
  const [source, setSource] = useState<ImportSourceName>('pagerduty');
  const [apiUrl, setApiUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const api = (API_IMPORT_SOURCES as readonly string[]).includes(source);
  const hint = SOURCE_HINTS[source];
  const fieldErrors = fieldErrorsOf(error, FIELDS);

  const readFile = async (chosen: File | undefined) => {
    setFileError(null);
    if (!chosen) return setFile(null);
    try {
      setFile({ name: chosen.name, content: await chosen.text() });
    } catch {
      setFile(null);
      setFileError('Your browser could not read that file: choose it again.');
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(
      api
        ? {
            source,
            apiUrl: apiUrl.trim() || undefined,
            apiKey: apiKey.trim() || undefined,
          }
        : { source, content: file?.content || undefined },
    );
  };

  return (
    <form noValidate aria-label="Import from" className="grid gap-4" onSubmit={submit}>
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-medium text-sm">Import from</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {IMPORT_SOURCES.map((s) => (
            <label
              key={s}
              className="flex cursor-pointer items-center gap-2 rounded-md border p-2.5 text-sm has-[:checked]:border-primary has-[:checked]:bg-primary/5"
            >
              <input
                type="radio"
                name={`${id}-source`}
                value={s}
                checked={source === s}
                onChange={() => setSource(s)}
                className="accent-primary"
              />
              {IMPORT_SOURCE_LABELS[s]}
            </label>
          ))}
        </div>
      </fieldset>
      {api ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-key`}>API key</Label>
            <Input
              id={`${id}-key`}
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              aria-invalid={fieldErrors?.apiKey ? true : undefined}
              aria-describedby={`${id}-key-hint`}
            />
            <p id={`${id}-key-hint`} className="text-muted-foreground text-xs">
              {fieldErrors?.apiKey ? (
                <span className="text-destructive">{fieldErrors.apiKey}</span>
              ) : (
                <>{hint.key} Used for this import only; Baton never keeps it.</>
              )}
            </p>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-url`}>API address</Label>
            <Input
              id={`${id}-url`}
              type="url"
              inputMode="url"
              placeholder={source === 'grafana-oncall' ? 'https://oncall.example.com' : ''}
              value={apiUrl}
              onChange={(e) => setApiUrl(e.target.value)}
              aria-invalid={fieldErrors?.apiUrl ? true : undefined}
              aria-describedby={`${id}-url-hint`}
            />
            <p id={`${id}-url-hint`} className="text-muted-foreground text-xs">
              {fieldErrors?.apiUrl ? (
                <span className="text-destructive">{fieldErrors.apiUrl}</span>
              ) : source === 'grafana-oncall' ? (
                hint.url
              ) : (
                <>Leave empty for {hint.url}.</>
              )}
            </p>
          </div>
        </div>
      ) : (
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-file`}>File</Label>
          <Input
            id={`${id}-file`}
            type="file"
            accept={source === 'csv' ? '.csv,text/csv' : '.ics,text/calendar'}
            onChange={(e) => readFile(e.target.files?.[0])}
            aria-invalid={fieldErrors?.content || fileError ? true : undefined}
            aria-describedby={`${id}-file-hint`}
          />
          <p id={`${id}-file-hint`} className="text-muted-foreground text-xs">
            {fileError || fieldErrors?.content ? (
              <span className="text-destructive">{fileError ?? fieldErrors?.content}</span>
            ) : (
              <>
                {hint.file}
                {source === 'csv' ? (
                  <>
                    {' '}
                    <a
                      href="/api/imports/template.csv"
                      download="baton-import.csv"
                      className="underline underline-offset-2 hover:text-foreground"
                    >
                      Download the template
                    </a>
                    .
                  </>
                ) : null}
              </>
            )}
          </p>
        </div>
      )}
      {error && !fieldErrors ? (
        <p role="alert" className="text-destructive text-sm">
          {getErrorMessage(error, 'The source could not be read.')}
        </p>
      ) : null}
      <div>
        <Button type="submit" pending={pending}>
          {pending ? null : <FileUp aria-hidden="true" />}
          {pending ? 'Reading the source…' : 'Make a plan'}
        </Button>
      </div>
    </form>
  );
}
