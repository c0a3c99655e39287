/** Typed helpers for plain objects, free of zod so checks.ts (imported by the console alone) can use them. */

/** The keys of a declaration object, typed as its keys (Object.keys answers string[]). */
export const keysOf = <O extends object>(object: O) => Object.keys(object) as (keyof O & string)[];
