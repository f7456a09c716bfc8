import { it } from 'vitest';
import { parseCalendar } from './ics-calendar';
import { readIcsContent } from './ics-reader';

it('perf', () => {
  const lines = ['BEGIN:VCALENDAR', 'X-WR-CALNAME:Big'];
  let t = Date.parse('2022-01-01T00:00:00Z');
  for (let i = 0; i < 30000; i++) {
    const s = new Date(t)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    t += 3 * 3600_000;
    const e = new Date(t)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    lines.push(
      'BEGIN:VEVENT',
      `DTSTART;VALUE=DATE-TIME:${s}`,
      `DTEND;VALUE=DATE-TIME:${e}`,
      `ATTENDEE:p${i % 30}@example.com`,
      `UID:U${i}`,
      `SUMMARY:On Call - Person ${i % 30} - Big`,
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  const text = lines.join('\r\n');
  let t0 = performance.now();
  parseCalendar(text);
  console.log('bytes', text.length, 'parse ms', Math.round(performance.now() - t0));
  t0 = performance.now();
  readIcsContent(text, { from: new Date('2030-01-01'), to: new Date('2030-04-01') });
  console.log('all ms', Math.round(performance.now() - t0));
});
