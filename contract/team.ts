/**
 * The team's rules (docs/protocol.md section 23), shared by the server, which pays by
 * them, and the client, which shows the progress to the next level with them. Amounts are integer
 * minor units, rates exact decimals: nothing goes through a float.
 *
 * - An account's **valid hosting** is its USDT hosting balance when that is at least 500
 *   (`isValidHosting`), else 0. A user's **own performance** is the sum of their accounts' valid
 *   hosting; a member is **valid** when their own performance is above 0 (an account of theirs
 *   holds at least 500 in hosting: two accounts of 300 each are not valid).
 * - **Team performance**: the sum of the own performance of every descendant, any generation
 *   (the user's own excluded). **Direct** performance: of the first generation; **indirect**: of
 *   the second generation and below (direct + indirect = team).
 * - An **area** (branch) is one first-generation member with their whole team: its performance is
 *   theirs plus their team's. **Small-area performance** = team performance minus the largest
 *   area's (one largest area is left out, even when two tie; 0 with at most one area).
 * - The **level** is the highest configured level whose three requirements the user all meets
 *   (own performance, valid first-generation members, small-area performance); 0 when none.
 */
import { isValidHosting } from './hosting-interest.js';
import { minor, type Minor } from './money.js';

/** The second generation is the deepest promotion income reaches (a rate for each of the two). */
export const PROMOTION_GENERATIONS = 2;

/** A user's figures the level is decided by. */
export interface LevelFigures {
  ownPerformance: Minor;
  directValidMembers: number;
  smallAreaPerformance: Minor;
}

/** One level's requirements (amounts in minor units). */
export interface LevelRequirements {
  level: number;
  ownHosting: Minor;
  directValidMembers: number;
  smallAreaPerformance: Minor;
}

/** The valid hosting of one account: its hosting balance when valid (≥ 500 USDT), else 0. Pure. */
export function validHostingOf(hostingBalance: bigint): Minor {
  return minor(isValidHosting(hostingBalance) ? hostingBalance : 0n);
}

/** True when `figures` meet every requirement of `level` (each "at least"). Pure. */
export function meetsLevel(figures: LevelFigures, level: LevelRequirements): boolean {
  return (
    figures.ownPerformance >= level.ownHosting &&
    figures.directValidMembers >= level.directValidMembers &&
    figures.smallAreaPerformance >= level.smallAreaPerformance
  );
}

/** The highest level whose requirements `figures` all meet; 0 when none is. Pure. */
export function levelFor(figures: LevelFigures, levels: readonly LevelRequirements[]): number {
  let best = 0;
  for (const level of levels) if (level.level > best && meetsLevel(figures, level)) best = level.level;
  return best;
}

/**
 * Small-area performance from the areas' performances (each first-generation member's own plus
 * their team's): their sum minus the largest one. Pure; 0 for no area or one.
 */
export function smallAreaOf(areas: readonly bigint[]): Minor {
  let total = 0n;
  let largest = 0n;
  for (const area of areas) {
    if (area < 0n) throw new RangeError('an area performance is at least 0');
    total += area;
    if (area > largest) largest = area;
  }
  return minor(total - largest);
}

/** What is still missing for `level`: 0 where a requirement is met. Pure. */
export function shortfallOf(
  figures: LevelFigures,
  level: LevelRequirements,
): { ownHosting: Minor; directValidMembers: number; smallAreaPerformance: Minor } {
  const gap = (need: bigint, have: bigint) => minor(need > have ? need - have : 0n);
  return {
    ownHosting: gap(level.ownHosting, figures.ownPerformance),
    directValidMembers: Math.max(0, level.directValidMembers - figures.directValidMembers),
    smallAreaPerformance: gap(level.smallAreaPerformance, figures.smallAreaPerformance),
  };
}
