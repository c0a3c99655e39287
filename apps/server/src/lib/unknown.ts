/**
 * Reading values whose type the code cannot know (errors thrown by drivers and SDKs, parsed JSON):
 * a property if it is there, checked by the caller, instead of a cast that would assume it.
 */
export const propertyOf = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null && key in value ? Reflect.get(value, key) : undefined;

/** A property that is text, or undefined. */
export function textOf(value: unknown, key: string): string | undefined {
  const found = propertyOf(value, key);
  return typeof found === 'string' ? found : undefined;
}

/** An object's own properties as a record (a copy), or an empty record for anything else. */
export const recordOf = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? { ...value } : {};

/** What was thrown, as an Error (a thrown string or object is wrapped, its text kept). */
export const errorOf = (thrown: unknown): Error =>
  thrown instanceof Error ? thrown : new Error(typeof thrown === 'string' ? thrown : JSON.stringify(thrown));

/**
 * Whether a value is a function, taken as the function type the caller names: for modules loaded by
 * name, whose default export's signature the loader cannot see.
 */
export const isFunction = <F extends (...args: never[]) => unknown>(value: unknown): value is F =>
  typeof value === 'function';
