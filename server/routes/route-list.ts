/**
 * What a route list is: a function that declares routes with the services it hands over to.
 * Its own module, below the table that registers every list (routes/index.ts), so no list
 * imports the table that imports it.
 */
import type { z } from 'zod';
import type { RouteDefinition } from '../http/route.js';
import type { AppServices } from '../services/container.js';

export type Define = <P extends z.ZodType, D extends z.ZodType>(def: RouteDefinition<P, D>) => void;
export type RoutesOf = (define: Define, services: AppServices) => void;
