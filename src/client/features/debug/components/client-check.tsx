import type { ClientCheck as ClientCheckResult, DebugRotation } from '@shared/contracts/debug';
import { DEBUG_SAMPLE_SIZE } from '@shared/contracts/debug';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useClientCheck } from '../api/run-diagnostics';
import { detail, ErrorPanel, FactList, JsonView } from './json-view';

/** parseStringified parses the server's JSON string back, or returns null when it does not parse. */
function parseStringified(text: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const typeOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
const show = (value: unknown) => (typeof value === 'string' ? `"${value}"` : String(value));

function TypedValues({ rows }: { rows: [string, unknown][] }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Value</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>As received</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map(([name, value]) => (
          <TableRow key={name}>
            <TableCell className="font-mono text-xs">{name}</TableCell>
            <TableCell>{typeOf(value)}</TableCell>
            <TableCell className="font-mono text-xs">{show(value)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Results({ data }: { data: ClientCheckResult }) {
  const parsed = parseStringified(data.rotations.stringified);
  const sample: DebugRotation | null = data.rotations.sampleRotation;
  const t = data.testValues;
  const coercions: [string, unknown][] = [
    ['Boolean(booleanAsBoolean)', Boolean(t.booleanAsBoolean)],
    ['Boolean(booleanAsString)', Boolean(t.booleanAsString)],
    ['Boolean(falseAsString)', Boolean(t.falseAsString)],
    ['falseAsString === "true"', t.falseAsString === 'true'],
    ['booleanAsString === "true"', t.booleanAsString === 'true'],
    ['Boolean(zero)', Boolean(t.zero)],
    ['Boolean(emptyString)', Boolean(t.emptyString)],
    ['Boolean(nullValue)', Boolean(t.nullValue)],
  ];
  return (
    <Tabs defaultValue="summary">
      <TabsList className="h-auto max-w-full flex-wrap justify-start">
        <TabsTrigger className="h-8 flex-none" value="summary">
          Summary
        </TabsTrigger>
        <TabsTrigger className="h-8 flex-none" value="rotations">
          Rotations Data
        </TabsTrigger>
        <TabsTrigger className="h-8 flex-none" value="types">
          Type Handling
        </TabsTrigger>
      </TabsList>
      <TabsContent value="summary" className="pt-2">
        <FactList
          facts={[
            ['Node environment', data.environment.nodeEnv],
            ['Hostname', detail(data.environment.hostname, 'hostname', data.withheld)],
            ['Is production', data.environment.isProd ? 'Yes' : 'No'],
            ['Rotation count', data.rotations.asObject.count],
            ['Rotation ids', data.rotations.asObject.ids.join(', ') || 'None'],
            ['JSON array length', data.rotations.jsonArray.length],
            [
              'Stringified JSON parsed',
              parsed ? (
                <Badge key="parsed" variant="secondary">
                  Success
                </Badge>
              ) : (
                <span key="parsed" className="flex flex-wrap items-center gap-2">
                  <Badge variant="destructive">Failed</Badge>
                  <span className="text-destructive">Failed to parse stringified JSON</span>
                </span>
              ),
            ],
            ['Parsed length', parsed ? parsed.length : '—'],
          ]}
        />
      </TabsContent>
      <TabsContent value="rotations" className="grid gap-4 pt-2">
        <div className="grid gap-2">
          <h3 className="font-medium text-sm">First {DEBUG_SAMPLE_SIZE} rotations</h3>
          <JsonView
            label="First rotations"
            value={data.rotations.jsonArray.slice(0, DEBUG_SAMPLE_SIZE)}
          />
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium text-sm">Sample rotation</h3>
          {sample ? (
            <TypedValues
              rows={[
                ['id', sample.id],
                ['name', sample.name],
                ['suspended', sample.suspended],
              ]}
            />
          ) : (
            <p className="text-muted-foreground text-sm">No rotations to sample.</p>
          )}
        </div>
        <FactList
          facts={[
            [
              'Parse test',
              parsed
                ? `Parsed ${parsed.length} rotation(s) from the string`
                : 'Failed to parse stringified JSON',
            ],
          ]}
        />
      </TabsContent>
      <TabsContent value="types" className="grid gap-4 pt-2">
        <div className="grid gap-2">
          <h3 className="font-medium text-sm">Test values</h3>
          <TypedValues rows={Object.entries(t)} />
        </div>
        <div className="grid gap-2">
          <h3 className="font-medium text-sm">Boolean coercion</h3>
          <TypedValues rows={coercions} />
        </div>
      </TabsContent>
    </Tabs>
  );
}

/** ClientCheck is the 'Client Data Handling Check' card: how rotation data survives the trip. */
export function ClientCheck() {
  const check = useClientCheck();
  const data = check.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle asChild>
          <h2>Client Data Handling Check</h2>
        </CardTitle>
        <CardDescription>
          Fetches rotations as an object, an array and a JSON string, and checks how this browser
          reads them.
        </CardDescription>
        {data ? (
          <CardAction>
            <Badge variant={data.environment.isProd ? 'destructive' : 'secondary'}>
              {data.environment.isProd ? 'Production' : 'Development'}
            </Badge>
          </CardAction>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4">
        <div>
          <Button onClick={() => check.mutate()} pending={check.isPending}>
            {check.isPending ? 'Running...' : 'Run Client Check'}
          </Button>
        </div>
        {check.isError ? <ErrorPanel error={check.error} /> : null}
        {data ? <Results data={data} /> : null}
      </CardContent>
    </Card>
  );
}
