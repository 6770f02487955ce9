/** What every console page reads: the API client and the signed-in operator. */
import { createContext, useContext } from 'react';
import type { z } from 'zod';
import type { adminMeDataSchema } from '../../contract/api/admin.js';
import type { ConsoleApi } from '../api.js';

export type Me = z.infer<typeof adminMeDataSchema>;

export interface ConsoleContextValue {
  api: ConsoleApi;
  me: Me;
  /** Reads the operator again (after a setup step). */
  refreshMe(): Promise<void>;
  signOut(): Promise<void>;
}

export const ConsoleContext = createContext<ConsoleContextValue | null>(null);

export function useConsole(): ConsoleContextValue {
  const value = useContext(ConsoleContext);
  if (!value) throw new Error('useConsole outside the console');
  return value;
}
