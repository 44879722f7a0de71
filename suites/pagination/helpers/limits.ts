// The limits that several areas of the pagination suite ask for.

export const SPEC_MAX_LIMIT = 1000;
/** Most items a page of a several-pages walk holds (fewer on short lists, so that they have several pages too). */
export const WALK_LIMIT = 50;
/** A limit that divides no round total, so the last page is a partial one. */
export const ODD_LIMIT = 7;
/** The limit a list takes when none is asked for (Pagination and sorting: limit default 100). */
export const SPEC_DEFAULT_LIMIT = 100;
