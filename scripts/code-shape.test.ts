/**
 * The code shape the repository keeps (docs/resources.md, "Code shape"): short files and
 * functions, and type assertions on a budget, so a newcomer reads code that says what it holds.
 */
import { describe, expect, it } from 'vitest';
import { assertionBudget, limits, measure } from './code-shape.ts';

const shape = measure();

describe('code shape', () => {
  it(`no source file is over ${limits.fileLines} lines (migrations aside)`, () => {
    expect(shape.longFiles).toEqual([]);
  });

  it(`no function is over ${limits.functionLines} lines`, () => {
    expect(shape.longFunctions).toEqual([]);
  });

  it('no value is cast through unknown', () => {
    expect(shape.unknownCasts).toEqual([]);
  });

  it.each(Object.entries(assertionBudget))(
    'the %s keeps to its budget of %i type assertions',
    (pkg, budget) => {
      const found = shape.assertions[pkg as keyof typeof assertionBudget];
      expect(
        found.length,
        found.map((a) => `${a.file}:${a.line} as ${a.text}`).join('\n'),
      ).toBeLessThanOrEqual(budget);
    },
  );
});
