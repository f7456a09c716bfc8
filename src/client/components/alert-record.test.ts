import { describe, expect, test } from 'vitest';
import { detailSections, prettyPayload } from './alert-record';

describe('prettyPayload', () => {
  test.each([
    ['JSON is indented', '{"a":1,"b":[2]}', '{\n  "a": 1,\n  "b": [\n    2\n  ]\n}'],
    ['text stays as it came', 'Subject: disk\n\nfull', 'Subject: disk\n\nfull'],
    [
      'a routing key in the body shows its last four characters only',
      '{"routing_key":"0123456789abcdef0123456789abcdef","event_action":"trigger"}',
      '{\n  "routing_key": "…cdef",\n  "event_action": "trigger"\n}',
    ],
    [
      'an array is indented as it is',
      '[{"routing_key":"x"}]',
      '[\n  {\n    "routing_key": "x"\n  }\n]',
    ],
  ])('%s', (_name, payload, expected) => {
    expect(prettyPayload(payload)).toBe(expected);
  });
});

test('detailSections groups rows by section in the order they came', () => {
  const rows = [
    { section: 'Labels', label: 'a', value: '1' },
    { section: 'Annotations', label: 'b', value: '2' },
    { section: 'Labels', label: 'c', value: '3' },
  ];
  expect(detailSections(rows).map(([s, r]) => [s, r.map((x) => x.label)])).toEqual([
    ['Labels', ['a', 'c']],
    ['Annotations', ['b']],
  ]);
});
