/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../src/resource.ts';

// Every resource module of the contract, so a field added anywhere is held to the same rule.
const modules = import.meta.glob<Record<string, unknown>>('../src/resources/*.ts', { eager: true });
const resources = Object.values(modules)
  .flatMap((module) => Object.values(module))
  .filter(
    (value): value is ResourceDef =>
      typeof value === 'object' && value !== null && 'fields' in value && 'key' in value,
  );

// What a form sends when a field is left empty or filled with a wrong kind of value.
const inputs = [undefined, null, 'x', {}];

describe('every field says what is wrong in Chinese; left empty, it names itself', () => {
  it('finds the resources', () => expect(resources.length).toBeGreaterThan(20));
  for (const resource of resources)
    it(`${resource.label} (${resource.key})`, () => {
      for (const [name, f] of Object.entries(resource.fields))
        for (const input of inputs) {
          const result = f.schema.safeParse(input);
          if (result.success) continue;
          const text = result.error.issues[0]!.message;
          // zod's own English ("Invalid input: expected string, received undefined") must never show.
          expect(text, `${name} ← ${JSON.stringify(input)}`).not.toMatch(
            /Invalid|expected|received|Too (big|small)/,
          );
          // A required field left empty says which one to fill (the server also prefixes its label).
          if (input === undefined) expect(text, name).toContain(f.label.replace(/（.*）$/, ''));
        }
    });
});
