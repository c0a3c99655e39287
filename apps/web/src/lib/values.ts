/**
 * Reading a value antd hands over as `unknown` (Form.useWatch, getFieldValue, a record's extra
 * keys) by checking what it is instead of asserting it: a value of another shape reads as absent.
 */
import dayjs, { type Dayjs } from 'dayjs';

export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

export const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** The texts of a list; anything else reads as none. */
export const textsOf = (value: unknown): string[] => (isStrings(value) ? value : []);

/** The numbers of a list (tree keys, ids); anything else in it is left out. */
export const numbersOf = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((item): item is number => typeof item === 'number') : [];

/** The two days a range picker holds. */
export const isDayRange = (value: unknown): value is [Dayjs, Dayjs] =>
  Array.isArray(value) && value.length === 2 && value.every((day) => dayjs.isDayjs(day));
