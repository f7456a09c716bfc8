import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { authUserQueryOptions } from './auth-user-query';
import {
  type DateInput,
  formatDate,
  formatDateTime,
  formatShortDate,
  formatTime,
  formatToSecond,
  timesInText,
  type ViewerZone,
  viewerZone,
} from './format-time';

/** useViewerTimeZone returns the zone the signed-in user's times are shown in (format-time.ts). */
export function useViewerTimeZone(): ViewerZone {
  const { data } = useQuery(authUserQueryOptions());
  const user = data?.user ?? null;
  return useMemo(() => viewerZone(user?.timezone, user !== null), [user]);
}

export type TimeFormat = ViewerZone & {
  /** 'Times in Europe/Berlin', the line a page shows once under its title */
  timesIn: string;
  date: (value: DateInput) => string;
  dateTime: (value: DateInput) => string;
  shortDate: (value: DateInput) => string;
  time: (value: DateInput) => string;
  toSecond: (value: DateInput) => string;
};

/** useTimeFormat returns the formatters of format-time.ts bound to the signed-in user's zone. */
export function useTimeFormat(): TimeFormat {
  const zone = useViewerTimeZone();
  return useMemo(() => {
    const { timeZone } = zone;
    return {
      ...zone,
      timesIn: timesInText(zone),
      date: (value) => formatDate(value, timeZone),
      dateTime: (value) => formatDateTime(value, timeZone),
      shortDate: (value) => formatShortDate(value, timeZone),
      time: (value) => formatTime(value, timeZone),
      toSecond: (value) => formatToSecond(value, timeZone),
    };
  }, [zone]);
}
