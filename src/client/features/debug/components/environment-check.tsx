import { Play } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useEnvironmentCheck } from '../api/run-diagnostics';
import { detail, ErrorPanel, FactList } from './json-view';

/** EnvironmentCheck runs the environment filtering check: does any rotation go missing here? */
export function EnvironmentCheck() {
  const check = useEnvironmentCheck();
  const result = check.data;
  const issues = result?.filtering.potentialFilteringIssues;

  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Environment Filtering Check</h2>
        </CardTitle>
        <CardDescription>
          Counts active and suspended rotations and checks that this environment's reads leave none
          out.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div>
          <Button onClick={() => check.mutate()} pending={check.isPending}>
            {check.isPending ? null : <Play aria-hidden="true" />}
            {check.isPending ? 'Checking...' : 'Run Environment Check'}
          </Button>
        </div>
        {check.isError ? <ErrorPanel error={check.error} /> : null}
        {result && issues ? (
          <Tabs defaultValue="summary">
            <TabsList className="h-auto max-w-full flex-wrap justify-start">
              <TabsTrigger className="h-8 flex-none" value="summary">
                Summary
              </TabsTrigger>
              <TabsTrigger className="h-8 flex-none" value="environment">
                Environment
              </TabsTrigger>
              <TabsTrigger className="h-8 flex-none" value="rotations">
                Rotations
              </TabsTrigger>
              <TabsTrigger className="h-8 flex-none" value="issues">
                Filtering Issues
              </TabsTrigger>
            </TabsList>
            <TabsContent value="summary" className="pt-2">
              <FactList
                facts={[
                  ['Total rotations', result.filtering.rotationsStats.total],
                  ['Active', result.filtering.rotationsStats.active],
                  ['Suspended', result.filtering.rotationsStats.suspended],
                  ['Suspended (%)', `${result.filtering.rotationsStats.percentSuspended}%`],
                  ['Direct query count', result.direct.count],
                ]}
              />
            </TabsContent>
            <TabsContent value="environment" className="pt-2">
              <FactList
                facts={[
                  ['Environment', result.filtering.environment.environment],
                  [
                    'Database',
                    detail(
                      result.filtering.environment.dbHost,
                      'dbHost',
                      result.filtering.withheld,
                    ),
                  ],
                ]}
              />
            </TabsContent>
            <TabsContent value="rotations" className="pt-2">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead>ID</TableHead>
                    <TableHead>Name</TableHead>
                    <TableHead>Status</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {result.filtering.allRotationsWithStatus.map((r) => (
                    <TableRow key={r.id}>
                      <TableCell>{r.id}</TableCell>
                      <TableCell>{r.name}</TableCell>
                      <TableCell>
                        <Badge variant={r.status === 'active' ? 'secondary' : 'outline'}>
                          {r.status === 'active' ? 'Active' : 'Suspended'}
                        </Badge>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TabsContent>
            <TabsContent value="issues" className="pt-2">
              <FactList
                facts={[
                  [
                    'Suspended rotations filtered out',
                    issues.hasFilteringSuspended ? 'Yes: the storage read leaves some out' : 'No',
                  ],
                  [
                    'Rotations filtered out in production',
                    issues.hasFilteringProduction
                      ? 'Yes: fewer rotations than the table holds'
                      : 'No',
                  ],
                  [
                    'Direct query agrees with the check',
                    result.direct.count === result.filtering.rotationsStats.total ? 'Yes' : 'No',
                  ],
                ]}
              />
            </TabsContent>
          </Tabs>
        ) : null}
      </CardContent>
    </Card>
  );
}
