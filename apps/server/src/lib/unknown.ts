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
