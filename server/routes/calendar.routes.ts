/** /api/admin/calendar: the working-day calendar withdrawals follow. */
import * as calendar from '../../contract/api/calendar.js';
import { noParamsSchema } from '../../contract/schema.js';
import { FINANCE, type RoutesOf } from './route-list.js';

export const calendarRoutes: RoutesOf = (define, { calendar: service }) => {
  define({
    path: '/api/admin/calendar/list',
    kind: 'read',
    access: FINANCE,
    params: noParamsSchema,
    data: calendar.calendarListDataSchema,
    summary: 'Holidays and make-up working days, by date',
    handle: () => service.list(),
  });
  define({
    path: '/api/admin/calendar/set',
    kind: 'command',
    access: FINANCE,
    params: calendar.calendarSetParamsSchema,
    data: calendar.calendarListDataSchema,
    summary: 'Mark a date a holiday, a make-up working day, or normal again (audited)',
    success: 'server.saved',
    handle: (ctx, params) => service.set(ctx, params),
  });
};
