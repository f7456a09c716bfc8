import { ExternalLink, Play } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { DEBUG_JSON_VIEWS, useRotationsCompare } from '../api/run-diagnostics';
import { detail, ErrorPanel, FactList, JsonView } from './json-view';

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** RotationTools opens the JSON views in a new tab and runs the direct-versus-storage diagnostic. */
export function RotationTools() {
  const compare = useRotationsCompare();
  const result = compare.data;

  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Raw JSON views</h2>
          </CardTitle>
          <CardDescription>Each opens the server's answer in a new tab.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-wrap gap-2">
          {DEBUG_JSON_VIEWS.map((view) => (
            <Button key={view.href} asChild variant="outline">
              <a href={view.href} target="_blank" rel="noopener noreferrer">
                {view.label}
                <ExternalLink aria-hidden="true" />
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </Button>
          ))}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle asChild>
            <h2>Rotation Diagnostics</h2>
          </CardTitle>
          <CardDescription>
            Reads every rotation with plain SQL and through the read the rotations list uses, and
            compares them.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div>
            <Button onClick={() => compare.mutate()} pending={compare.isPending}>
              {compare.isPending ? null : <Play aria-hidden="true" />}
              {compare.isPending ? 'Running...' : 'Run Diagnostics'}
            </Button>
          </div>
          {compare.isError ? <ErrorPanel error={compare.error} /> : null}
          {result ? (
            <Tabs defaultValue="summary">
              <TabsList className="h-auto max-w-full flex-wrap justify-start">
                <TabsTrigger className="h-8 flex-none" value="summary">
                  Summary
                </TabsTrigger>
                <TabsTrigger className="h-8 flex-none" value="environment">
                  Environment
                </TabsTrigger>
                <TabsTrigger className="h-8 flex-none" value="differences">
                  Differences
                  <Badge
                    variant={result.fieldDifferences.length > 0 ? 'destructive' : 'secondary'}
                    aria-label={`${result.fieldDifferences.length} differences`}
                  >
                    {result.fieldDifferences.length}
                  </Badge>
                </TabsTrigger>
                <TabsTrigger className="h-8 flex-none" value="samples">
                  Samples
                </TabsTrigger>
              </TabsList>
              <TabsContent value="summary" className="pt-2">
                <FactList
                  facts={[
                    ['Direct query count', result.summary.directCount],
                    ['Storage count', result.summary.storageCount],
                    [
                      'Result',
                      <Badge
                        key="match"
                        variant={result.summary.match ? 'secondary' : 'destructive'}
                      >
                        {result.summary.match ? 'Match' : 'Mismatch'}
                      </Badge>,
                    ],
                    ['Only in direct query', result.idComparison.onlyInDirect.join(', ') || 'None'],
                    ['Only in storage', result.idComparison.onlyInStorage.join(', ') || 'None'],
                  ]}
                />
              </TabsContent>
              <TabsContent value="environment" className="pt-2">
                <FactList
                  facts={[
                    ['Node environment', result.environment.nodeEnv],
                    ['Hostname', detail(result.environment.hostname, 'hostname', result.withheld)],
                    ['Database', detail(result.environment.dbHost, 'dbHost', result.withheld)],
                    ['Encryption key available', yesNo(result.environment.encryptionKeyAvailable)],
                  ]}
                />
              </TabsContent>
              <TabsContent value="differences" className="pt-2">
                {result.fieldDifferences.length === 0 ? (
                  <p className="text-muted-foreground text-sm">
                    No field differences: both reads agree on every rotation.
                  </p>
                ) : (
                  <ul className="grid gap-3">
                    {result.fieldDifferences.map((d) => (
                      <li key={d.id} className="grid gap-2">
                        <p className="font-medium text-sm">
                          Rotation {d.id}: {d.differences.join(', ')}
                        </p>
                        <div className="grid gap-2 md:grid-cols-2">
                          <JsonView label={`Direct read of rotation ${d.id}`} value={d.direct} />
                          <JsonView label={`Storage read of rotation ${d.id}`} value={d.storage} />
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
              </TabsContent>
              <TabsContent value="samples" className="grid gap-2 pt-2 md:grid-cols-2">
                <div className="grid gap-2">
                  <h3 className="font-medium text-sm">Direct query (first 2)</h3>
                  <JsonView label="Direct query sample" value={result.samples.directFirst} />
                </div>
                <div className="grid gap-2">
                  <h3 className="font-medium text-sm">Storage (first 2)</h3>
                  <JsonView label="Storage sample" value={result.samples.storageFirst} />
                </div>
              </TabsContent>
            </Tabs>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
