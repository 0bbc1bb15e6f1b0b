/**
 * The way a change moves a value, size or count: `lowering` (a shorter retention, fewer replicas, a
 * smaller limit) or `raising` (a longer retention, more memory, a higher limit). A trap written for
 * one way (`direction`, schema/traps.ts) is one line for a change that says only the other: the data
 * a shorter retention deletes is not what a longer one risks. Each way's words are defined here once;
 * gateway/datasets/direction.ts reads them, and a "from 7 to 3" in the change, in a change.
 */
export const DIRECTIONS = {
  lowering:
    'lower lowers lowered lowering reduce reduces reduced reducing decrease decreases decreased decreasing shrink shrinks shrinking shorten shortens shortened shortening shorter smaller fewer less trim trims trimming cut cuts cutting downsize downsizing downscale',
  raising:
    'raise raises raised raising increase increases increased increasing grow grows growing extend extends extended extending longer bigger larger higher more expand expands expanding double doubles doubling widen widening',
} as const satisfies Record<string, string>

export type Direction = keyof typeof DIRECTIONS
export const DIRECTION_IDS = Object.keys(DIRECTIONS) as [Direction, ...Direction[]]
